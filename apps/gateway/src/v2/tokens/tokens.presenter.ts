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

/** Every token the caller may see, in one page: a user has few. */
export function toV2TokenList(tokens: TokenView[], base: string) {
  return { items: tokens.map(toV2TokenItem), startIndex: 0, maxResults: tokens.length, links: { self: `${base}/v2/token` } };
}
