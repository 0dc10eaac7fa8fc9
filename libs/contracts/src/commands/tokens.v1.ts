export const TokensCommandV1 = {
  authenticate: 'tokens.authenticate.v1',
} as const;

export const TOKEN_KINDS = ['admin', 'notification'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/**
 * Looks a token up by its hash and counts the request against the token's fixed rate
 * window, in one database statement. The raw token never crosses the broker.
 */
export interface AuthenticateRequestV1 {
  tokenHash: string;
  windowSeconds: number;
}

export interface AuthenticatedToken {
  id: number;
  kind: TokenKind;
  label: string;
}

export interface AuthenticateReplyV1 {
  token: AuthenticatedToken | null;
  /** Requests counted in the current window, this one included (0 when token is null). */
  count: number;
  /** UNIX seconds at which the current window ends. */
  windowResetsAt: number;
}
