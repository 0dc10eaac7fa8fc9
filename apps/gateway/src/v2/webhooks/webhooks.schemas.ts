import { WEBHOOK_AUTHENTICATIONS, WEBHOOK_DELIVERY_MODES, WEBHOOK_EVENT_NAMES, WebhookSpec, webhookField, webhookSpecSchema } from '@app/contracts';
import { z } from 'zod';
import { pageListQuery, pageSchema } from '../http/pagination';
import { optionalField } from '../http/validation';

/**
 * PUT /v2/room/{room}/extension/webhook/{key}: the contracts' rules, with the optional
 * fields also accepted as null (and an empty pattern as none); unknown fields are dropped.
 */
export const webhookBody = webhookSpecSchema.extend({
  pattern: optionalField(webhookField.pattern, true),
  name: optionalField(webhookField.name),
  authentication: optionalField(webhookField.authentication),
  delivery: optionalField(webhookField.delivery),
});
export type WebhookBody = z.output<typeof webhookBody>;

/** POST /v2/room/{room}/webhook: the same, with an optional key. */
export const createWebhookBody = webhookBody.extend({
  key: optionalField(webhookField.key),
});
export type CreateWebhookBody = z.output<typeof createWebhookBody>;

export const webhookListQuery = pageListQuery;
export type WebhookListQuery = z.output<typeof webhookListQuery>;

/** `{key}` of the extension paths: the key's rule, a 400 naming `key` otherwise. */
export const webhookKeyParam = webhookField.key;

/** The spec a command carries: only the fields the client gave. */
export function specOf(b: WebhookBody): WebhookSpec {
  return {
    url: b.url,
    event: b.event,
    ...(b.pattern !== undefined ? { pattern: b.pattern } : {}),
    ...(b.name !== undefined ? { name: b.name } : {}),
    ...(b.authentication !== undefined ? { authentication: b.authentication } : {}),
    ...(b.delivery !== undefined ? { delivery: b.delivery } : {}),
  };
}

const instantOrNull = (what: string) => z.string().nullable().describe(`${what} (ISO 8601), or null`);

/** A webhook as GET .../webhook lists it (toV2WebhookItem), for the OpenAPI document. */
export const webhookItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  event: z.enum(WEBHOOK_EVENT_NAMES as unknown as [string, ...string[]]),
  pattern: z.string().nullable(),
  authentication: z.enum(WEBHOOK_AUTHENTICATIONS as unknown as [string, ...string[]]),
  delivery: z.enum(WEBHOOK_DELIVERY_MODES as unknown as [string, ...string[]]).describe(
    'Our extension. concurrent (the default, as HipChat): each delivery as soon as it can. ordered: the deliveries of one room one at a time, ' +
    'in the order of the room\'s events; a delivery being retried holds back only the later ones of that room to this webhook, and once it has failed the next go on',
  ),
  key: z.string().optional().describe('The integration\'s key, when it has one'),
  enabled: z.boolean().describe('False once disabled for failing (WEBHOOK_DISABLE_AFTER and WEBHOOK_DISABLE_MIN_FAILURES): nothing is delivered to it until POST .../enable'),
  last_success_at: instantOrNull('The latest delivered attempt'),
  failing_since: instantOrNull('The first failed attempt after the last success'),
  consecutive_failures: z.number().int().describe('Failed attempts since the last success (or since it was last enabled)'),
  disabled_reason: z.string().nullable().describe('Why it was disabled (`creator_lost_access`: its creator may no longer read the room); null while enabled'),
  links: z.object({ self: z.string() }),
});

/** GET .../webhook/{id} and .../extension/webhook/{key} (toV2Webhook). */
export const webhookSchema = webhookItemSchema.extend({ links: z.object({ self: z.string(), room: z.string() }) });

export const webhookPageSchema = pageSchema(webhookItemSchema);
