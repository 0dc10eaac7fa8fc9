import { z } from 'zod';
import { UserView } from '../../models/views';
import { defineCommand } from '../define-command';

/** A session made by a sign-in: its token id (revoked by that id) and when it ends. */
export interface SessionView {
  id: number;
  /** ISO-8601. */
  expires: string;
  user: UserView;
}

/**
 * Signs a user in with their e-mail address and password: a live, non-guest user whose
 * scrypt hash matches gets a session (an api_tokens row of kind `session`) stored under
 * `sessionHash`; the caller made the secret and keeps it. A wrong address or password
 * answers `{ session: null }` alike (not an error: the caller counts failures).
 */
export const SignInV1 = defineCommand<{ session: SessionView | null }>('users.sign-in.v1', z.object({
  email: z.string().max(1000),
  password: z.string().max(1000),
  sessionHash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 hash in hex'),
  ttlSeconds: z.number().int().positive(),
}));

/** Ends a session (idempotent): `token.revoked.v1` reaches every gateway before the answer. */
export const SignOutV1 = defineCommand<Record<string, never>>('users.sign-out.v1', z.object({
  sessionId: z.number().int().positive(),
}));
