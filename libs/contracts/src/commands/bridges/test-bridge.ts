import { z } from 'zod';
import { idSchema } from '../../rules/ids';
import { defineCommand } from '../define-command';

/** What the platform answered to a bridge's test post. */
export interface BridgeTestReply {
  /** The platform's HTTP status; null when no answer came (a timeout, a refused address). */
  status: number | null;
  /** The platform's answer (at most 2,000 characters, the bridge's secrets redacted), or why none came. */
  body: string;
  /** What the answer means for the bridge's deliveries (platform-answers.ts): delivered, retry, failed or never. */
  outcome: 'delivered' | 'retry' | 'failed' | 'never';
  durationMs: number;
}

/**
 * Posts "Bridge test from {room}" through the bridge now (its format, the SSRF guard, its
 * platform's rate limit) and answers what the platform said: served by the dispatchers
 * (`POST /v2/room/{room}/bridge/{id}/test`, `cli bridge test`). Recorded nowhere: it is not
 * a delivery of an event. The caller has checked that the actor may manage the bridge.
 */
export const TestBridgeV1 = defineCommand<BridgeTestReply>('bridges.test.v1', z.object({
  bridgeId: idSchema,
  roomName: z.string().min(1).max(100),
}).strict());
