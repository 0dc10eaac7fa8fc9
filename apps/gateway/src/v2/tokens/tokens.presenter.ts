import type { TokenView } from '@app/contracts';

/** A token as the tokens API shows it: never its clear text (but once, in the 201 of its creation). */
export function toV2TokenItem(t: TokenView) {
  return {
    id: t.id,
    label: t.label,
    kind: t.kind,
    scopes: t.scopes,
    created: t.created,
    ...(t.userId !== null ? { user_id: t.userId } : {}),
  };
}
