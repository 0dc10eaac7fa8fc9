import { z } from 'zod';
import { BRIDGE_KINDS, BridgeKind } from '../../models/bridge';
import { WEBHOOK_EVENT_NAMES, WebhookEventName } from '../../models/webhook-event-names';
import { WebhookHealthView } from '../../models/webhook-registration';
import { charLength, controlProblem, firstProblem, oneOf, text } from '../../rules/text';
import { webhookField } from '../webhooks/webhook-fields';

const lengthProblem = (v: string, min: number, max: number): string | null =>
  charLength(v) < min || charLength(v) > max ? `must be ${min} to ${max} characters (got ${charLength(v)})` : null;

/** A Matrix room id as the client-server API names rooms: `!opaque:server`. */
const MATRIX_ROOM_ID = /^![^:]+:.+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The rules of a bridge's fields, written once (the v2 edge and the rooms service both parse
 * with them). URL, pattern and name are a webhook's: a bridge is delivered as one. The rules
 * between fields (matrix only with kind matrix, inbound only for platforms that send
 * outgoing webhooks) are the rooms service's (apps/rooms/src/bridges/bridge-rules.ts).
 */
export const bridgeField = {
  kind: oneOf(BRIDGE_KINDS),
  url: webhookField.url,
  events: z.array(webhookField.event)
    .min(1, { message: `must name at least one of ${WEBHOOK_EVENT_NAMES.join(', ')}` })
    .superRefine((events, ctx) => {
      const twice = events.find((e, i) => events.indexOf(e) !== i);
      if (twice !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must not name an event twice (${twice})` });
    }),
  pattern: webhookField.pattern,
  name: webhookField.name,
  matrixRoomId: text((v) => firstProblem(
    MATRIX_ROOM_ID.test(v) ? null : 'must be a Matrix room id, !opaque_id:server (e.g. !abc:example.org)', controlProblem(v), lengthProblem(v, 1, 255))),
  matrixAccessToken: text((v) => firstProblem(lengthProblem(v, 1, 512), controlProblem(v))),
  inboundToken: text((v) => firstProblem(lengthProblem(v, 1, 256), controlProblem(v))),
  inboundHmacSecret: text((v) => firstProblem(lengthProblem(v, 1, 512), BASE64.test(v) ? null : 'must be base64 (Teams shows the security token so)')),
};

/** Matrix: the room a bridge posts in and its bot user's access token. */
export const bridgeMatrixSchema = z.object({
  room_id: bridgeField.matrixRoomId,
  // Optional in the schema: a PUT that leaves it out keeps the stored one; creating a Matrix bridge needs it (bridge-rules.ts).
  access_token: bridgeField.matrixAccessToken.optional(),
});

/**
 * Inbound: what people write in the platform's channel comes back into the room. `token`
 * and `hmac_secret`: what the platform's requests are verified with; a PUT that leaves them
 * out keeps those stored. `rotate`: a new inbound URL (the old one stops working).
 */
export const bridgeInboundSchema = z.object({
  enabled: z.boolean(),
  token: bridgeField.inboundToken.optional(),
  hmac_secret: bridgeField.inboundHmacSecret.optional(),
  rotate: z.boolean().optional(),
});

/** A bridge as a request describes it (POST, and PUT which replaces it whole). */
export const bridgeSpecSchema = z.object({
  kind: bridgeField.kind,
  url: bridgeField.url,
  events: bridgeField.events.optional(),
  pattern: bridgeField.pattern.optional(),
  name: bridgeField.name.optional(),
  matrix: bridgeMatrixSchema.optional(),
  inbound: bridgeInboundSchema.optional(),
});
export type BridgeSpec = z.output<typeof bridgeSpecSchema>;

/** How a bridge's inbound requests are verified: the platform's token, Teams' HMAC, or nothing but the unguessable URL. */
export type BridgeInboundVerification = 'token' | 'hmac' | null;

/** A bridge as the API shows it: never the Matrix token, the inbound URL or its secrets. */
export interface BridgeView {
  id: number;
  roomId: number;
  kind: BridgeKind;
  name: string;
  /** Masked (maskedUrl in @app/common): a platform's incoming-webhook URL is a credential. */
  url: string;
  events: WebhookEventName[];
  pattern: string | null;
  created: string;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  health: WebhookHealthView;
  matrix: { roomId: string } | null;
  inbound: { enabled: boolean; verifiedBy: BridgeInboundVerification };
}
