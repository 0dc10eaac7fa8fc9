import { BRIDGE_KINDS, bridgeField, bridgeInboundSchema, bridgeMatrixSchema, BridgeSpec, bridgeSpecSchema, WEBHOOK_EVENT_NAMES } from '@app/contracts';
import { z } from 'zod';
import { pageListQuery, pageSchema } from '../http/pagination';
import { optionalField } from '../http/validation';

/**
 * POST /v2/room/{room}/bridge and PUT …/bridge/{id}: the contracts' rules, with the optional
 * fields also accepted as null (and an empty pattern as none); unknown fields are dropped.
 */
export const bridgeBody = bridgeSpecSchema.extend({
  events: optionalField(bridgeField.events),
  pattern: optionalField(bridgeField.pattern, true),
  name: optionalField(bridgeField.name),
  matrix: optionalField(bridgeMatrixSchema),
  inbound: optionalField(bridgeInboundSchema),
});
export type BridgeBody = z.output<typeof bridgeBody>;

export const bridgeListQuery = pageListQuery;
export type BridgeListQuery = z.output<typeof bridgeListQuery>;

/** The spec a command carries: only the fields the client gave. */
export function bridgeSpecOf(b: BridgeBody): BridgeSpec {
  return {
    kind: b.kind,
    url: b.url,
    ...(b.events !== undefined ? { events: b.events } : {}),
    ...(b.pattern !== undefined ? { pattern: b.pattern } : {}),
    ...(b.name !== undefined ? { name: b.name } : {}),
    ...(b.matrix !== undefined ? { matrix: b.matrix } : {}),
    ...(b.inbound !== undefined ? { inbound: b.inbound } : {}),
  };
}

const instantOrNull = (what: string) => z.string().nullable().describe(`${what} (ISO 8601), or null`);

/** A bridge as the API shows it (toV2Bridge), for the OpenAPI document. */
export const bridgeSchema = z.object({
  id: z.number().int(),
  kind: z.enum(BRIDGE_KINDS),
  name: z.string(),
  url: z.string().describe('The platform\'s incoming-webhook URL (Matrix: the homeserver), its query\'s values masked'),
  events: z.array(z.enum(WEBHOOK_EVENT_NAMES as unknown as [string, ...string[]])),
  pattern: z.string().nullable().describe('RE2, matched against message text: filters room_message; the other events go unfiltered'),
  enabled: z.boolean().describe('False once disabled (failing, or its creator lost access to the room): nothing is posted until it is enabled again'),
  disabled_reason: z.string().nullable(),
  created: z.string().describe('ISO 8601'),
  health: z.object({
    last_success_at: instantOrNull('The latest delivered post'),
    failing_since: instantOrNull('The first failed post after the last success'),
    consecutive_failures: z.number().int(),
    last_error: z.string().nullable(),
  }),
  matrix: z.object({ room_id: z.string() }).optional().describe('Matrix only: the room it posts in (never its access token)'),
  inbound: z.object({
    enabled: z.boolean(),
    url: z.string().optional().describe('The inbound URL, for the platform\'s outgoing webhook: answered only when it is made (created, first enabled, rotated), never again'),
    verified_by: z.enum(['token', 'hmac']).nullable().describe('What the platform\'s requests are checked with besides the unguessable URL'),
  }),
  links: z.object({ self: z.string() }),
});

export const bridgePageSchema = pageSchema(bridgeSchema);
