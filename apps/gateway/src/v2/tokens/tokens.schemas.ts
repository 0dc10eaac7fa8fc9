import { LIMITS, USER_TOKEN_KINDS } from '@app/contracts';
import { z } from 'zod';

/** POST /v2/token. Which scopes exist, and who may give which, is the rooms service's call (400 or 403 naming them). */
export const createTokenBody = z.object({
  label: z.string({ required_error: 'is required', invalid_type_error: 'must be a string' })
    .min(1, 'is required').max(LIMITS.tokenLabelMaxLength, `must be at most ${LIMITS.tokenLabelMaxLength} characters`),
  scopes: z.array(z.string({ invalid_type_error: 'must be scope names' }), { invalid_type_error: 'must be an array of scope names' })
    .max(50, 'must name at most 50 scopes').optional().default([]),
  kind: z.enum(USER_TOKEN_KINDS, { errorMap: () => ({ message: `must be one of ${USER_TOKEN_KINDS.join(', ')}` }) }).optional().default('personal'),
});
export type CreateTokenBody = z.output<typeof createTokenBody>;

const tokenItem = z.object({
  id: z.number(), label: z.string(), kind: z.string(), scopes: z.array(z.string()), created: z.string(), user_id: z.number().optional(),
});

export const tokenListResponse = z.object({
  items: z.array(tokenItem), startIndex: z.number(), maxResults: z.number(),
  links: z.object({ self: z.string(), prev: z.string().optional(), next: z.string().optional() }),
});

/** The 201 of POST /v2/token: the item, and the token's clear text (shown this once). */
export const createdTokenResponse = tokenItem.extend({ token: z.string() });
