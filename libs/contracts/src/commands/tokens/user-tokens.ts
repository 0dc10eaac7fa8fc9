import { z } from 'zod';
import { LIMITS } from '../../models/limits';
import { defineCommand } from '../define-command';
import type { TokenKind, V2Scope } from './resolve-token';
import { actorSchema } from '../refs';

/** The kinds a user manages through the tokens API: their own personal tokens; group admins also v1 ones. */
export const USER_TOKEN_KINDS = ['personal', 'admin', 'notification'] as const;
export type UserTokenKind = (typeof USER_TOKEN_KINDS)[number];

/** A token as its owner (or a group admin) sees it: never its clear text or hash. */
export interface TokenView {
  id: number;
  label: string;
  kind: TokenKind;
  scopes: V2Scope[];
  created: string;
  /** The user a personal token acts as; null for v1 tokens. */
  userId: number | null;
}

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 hash in hex');

/** The live tokens `userId` may see: their personal tokens, and v1 tokens when a group admin. */
export const ListUserTokensV1 = defineCommand<{ tokens: TokenView[] }>('tokens.list-user-tokens.v1', z.object({
  userId: z.number().int().positive(),
}), { query: true });

/**
 * A token made by a user for themselves (personal) or, by a group admin, a v1 one. The
 * caller makes the clear token and sends its hash: the clear text never crosses the broker
 * nor rests in a stored reply. Scopes are checked by the receiver (unknown: invalid naming
 * `scopes`; admin_group for a non-admin, or a v1 kind: forbidden).
 */
export const CreateUserTokenV1 = defineCommand<{ token: TokenView }>('tokens.create-user-token.v1', z.object({
  /** The request's actor (absent from older senders): named in the audit log. */
  actor: actorSchema.optional(),
  userId: z.number().int().positive(),
  kind: z.enum(USER_TOKEN_KINDS),
  label: z.string().max(LIMITS.tokenLabelMaxLength),
  scopes: z.array(z.string().max(100)).max(50),
  tokenHash: sha256Hex,
}));

/** Revokes a token `userId` may see (else token_not_found): `token.revoked.v1` reaches every gateway before the answer. */
export const RevokeUserTokenV1 = defineCommand<Record<string, never>>('tokens.revoke-user-token.v1', z.object({
  /** The request's actor (absent from older senders): named in the audit log. */
  actor: actorSchema.optional(),
  userId: z.number().int().positive(),
  tokenId: z.number().int().positive(),
}));
