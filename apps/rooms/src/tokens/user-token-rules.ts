import { commandFailure, grantableScopes, UserTokenKind, V2_SCOPES, V2Scope } from '@app/contracts';

export interface NewUserToken { kind: UserTokenKind; scopes: string[] }

/**
 * What a user may make through the tokens API: personal tokens with the scopes a personal
 * token of theirs may carry (admin_group for group admins only), and, group admins only,
 * v1 admin and notification tokens (which take no scopes). Throws the refusal, naming
 * `scopes` or `kind`; answers the scopes to store.
 */
export function checkNewUserToken(t: NewUserToken, isGroupAdmin: boolean): V2Scope[] {
  if (t.kind !== 'personal') {
    if (!isGroupAdmin) throw commandFailure('forbidden', 'not_allowed', 'kind', { message: `Only group admins may create ${t.kind} tokens.` });
    if (t.scopes.length > 0) throw commandFailure('invalid', 'rule', 'scopes', { problem: `must be empty for a ${t.kind} token (v1 tokens have no scopes)` });
    return [];
  }
  const unknown = t.scopes.find((s) => !(V2_SCOPES as readonly string[]).includes(s));
  if (unknown !== undefined) {
    throw commandFailure('invalid', 'rule', 'scopes', { problem: `unknown scope "${unknown.slice(0, 100)}"; the scopes are ${V2_SCOPES.join(', ')}` });
  }
  if (t.scopes.length === 0) throw commandFailure('invalid', 'rule', 'scopes', { problem: 'must name at least one scope' });
  const allowed = grantableScopes(isGroupAdmin);
  const denied = t.scopes.find((s) => !(allowed as string[]).includes(s));
  if (denied !== undefined) throw commandFailure('forbidden', 'not_allowed', 'scopes', { message: `Only group admins may give a token the scope ${denied}.` });
  return [...new Set(t.scopes as V2Scope[])];
}
