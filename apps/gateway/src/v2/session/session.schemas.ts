import { z } from 'zod';

/**
 * POST /v2/session. Only presence and size are checked: a password that breaks today's
 * rules may still be someone's, and a wrong one is answered as a wrong one (401).
 */
export const signInBody = z.object({
  email: z.string({ required_error: 'is required', invalid_type_error: 'must be a string' }).min(1, 'is required').max(254, 'must be at most 254 characters'),
  password: z.string({ required_error: 'is required', invalid_type_error: 'must be a string' }).min(1, 'is required').max(1024, 'must be at most 1024 characters'),
});
export type SignInBody = z.output<typeof signInBody>;

/** The answer of POST and GET /v2/session. */
export const sessionResponse = z.object({
  user: z.object({ id: z.number(), name: z.string(), mention_name: z.string(), email: z.string(), is_group_admin: z.boolean() }),
  csrf_token: z.string(),
  expires: z.string(),
});
