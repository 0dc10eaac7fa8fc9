import { z } from 'zod';
import { defineCommand } from '../define-command';

export const TOKEN_KINDS = ['admin', 'notification'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

export interface AuthenticatedToken {
  id: number;
  kind: TokenKind;
  label: string;
}

/**
 * Looks a token up by its SHA-256 hash (the clear token never crosses the broker). The
 * gateway caches the answer; `token.revoked.v1` tells every replica to forget it.
 */
export const ResolveTokenV1 = defineCommand<{ token: AuthenticatedToken | null }>('tokens.resolve-token.v1', z.object({
  tokenHash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 hash in hex'),
}));
