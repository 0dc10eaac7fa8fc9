import { z } from 'zod';
import { defineCommand } from '../define-command';

/**
 * v1 tokens (admin, notification) and v2 tokens (personal, room, add-on): never accepted by
 * the other API. A `session` is the web console's sign-in: accepted by v2 from the session
 * cookie only, never as a bearer token.
 */
export const TOKEN_KINDS = ['admin', 'notification', 'personal', 'room', 'addon', 'session'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];
export const V1_TOKEN_KINDS: readonly TokenKind[] = ['admin', 'notification'];
export const V2_TOKEN_KINDS: readonly TokenKind[] = ['personal', 'room', 'addon'];

export { V2_SCOPES, type V2Scope } from '../../models/scopes';
import { V2_SCOPES, type V2Scope } from '../../models/scopes';

export interface AuthenticatedToken {
  id: number;
  kind: TokenKind;
  label: string;
  /** The user a personal token acts as (v2); null for other kinds. */
  userId: number | null;
  /** The one room a room token may send to (v2); null for other kinds. */
  roomId: number | null;
  /** v2 scopes; empty for v1 tokens, whose kind says what they may do. */
  scopes: V2Scope[];
  /** When it stops working (ISO-8601), for tokens that expire (sessions, add-on tokens). */
  expires?: string;
}

/** The scopes a user's personal token (and session) may carry: admin_group for group admins only. */
export function grantableScopes(isGroupAdmin: boolean): V2Scope[] {
  return V2_SCOPES.filter((s) => isGroupAdmin || s !== 'admin_group');
}

/**
 * The scopes a token acts with. A token confined to one room (an add-on installed in a
 * room, whose descriptor may have asked for anything) acts on that room only: admin_group,
 * the group's administration (users, add-ons, every room's tokens), is not in force for it.
 * Here, not in the gateway alone: what a token is told it may do (the OAuth answer's
 * `scope`) must be what the gateway then lets it do.
 */
/**
 * What a token confined to one room is answered when it asks for what concerns the group
 * (creating a room, a user's record): whatever its scopes, it acts in its room only.
 */
export const confinedTokenRefusal = (roomId: number, what: string): string =>
  `This token is confined to one room (room ${roomId}): it may not ${what}.`;

export function scopesInForce<S extends string>(token: { scopes: readonly S[]; roomId: number | null }): S[] {
  return token.roomId === null ? [...token.scopes] : token.scopes.filter((s) => s !== 'admin_group');
}

/**
 * Looks a token up by its SHA-256 hash (the clear token never crosses the broker). The
 * gateway caches the answer; `token.revoked.v1` tells every replica to forget it.
 */
export const ResolveTokenV1 = defineCommand<{ token: AuthenticatedToken | null }>('tokens.resolve-token.v1', z.object({
  tokenHash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 hash in hex'),
}), { query: true });
