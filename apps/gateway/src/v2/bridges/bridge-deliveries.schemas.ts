import { z } from 'zod';

/** POST .../bridge/{id}/test's answer (toV2BridgeTest), for the OpenAPI document. */
export const bridgeTestSchema = z.object({
  status: z.number().int().nullable().describe('The platform\'s HTTP status; null when no answer came (a timeout, a refused address)'),
  body: z.string().describe('The platform\'s answer (at most 2,000 characters, the bridge\'s secrets redacted), or why none came'),
  outcome: z.enum(['delivered', 'retry', 'failed', 'never'])
    .describe('What such an answer means for a delivery: delivered; retried on the schedule; failed; never again (the bridge would be disabled)'),
  duration_ms: z.number().int(),
});
