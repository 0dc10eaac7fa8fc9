import { z } from 'zod';
import type { BridgeKind } from '../../models/bridge';
import { defineCommand } from '../define-command';

/**
 * What the platform's request to a bridge's inbound URL came to: `posted` in the room, or
 * `ignored` (a bot's or webhook's post, or an echo of what the room sent out: a ring of
 * bridges must not loop). Either way the platform is answered so that it posts nothing.
 */
export interface InboundReceipt {
  kind: BridgeKind;
  outcome: 'posted' | 'ignored';
  /** The posted message's id. */
  id?: string;
}

/**
 * A request to a bridge's inbound URL (`POST /v2/bridge/inbound/{key}`), as it came: only
 * the rooms service can open the bridge's token or HMAC secret, and Teams signs the exact
 * bytes of the body, so the edge forwards them untouched (base64) with the headers that
 * matter. The key is the credential: an unknown one, or one whose bridge or inbound is
 * disabled, answers the same not_found.
 */
export const ReceiveBridgeInboundV1 = defineCommand<InboundReceipt>('bridges.receive-inbound.v1', z.object({
  key: z.string().min(1).max(100),
  /** The request's Content-Type (form or JSON). */
  contentType: z.string().max(200),
  /** The body's bytes, base64. */
  body: z.string().max(4 * 1024 * 1024),
  /** The Authorization header (Teams: `HMAC <base64>`). */
  authorization: z.string().max(1000).optional(),
}));
