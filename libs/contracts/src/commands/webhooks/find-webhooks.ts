import { z } from 'zod';
import { WebhookRegistration, WebhookView } from '../../models/webhook-registration';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';
import { webhookField } from './webhook-fields';

/** One webhook of a room, by its id or by its key. */
export const webhookRefSchema = z.union([
  z.object({ id: z.number().int().positive().max(2_147_483_647) }).strict(),
  z.object({ key: webhookField.key }).strict(),
]);
export type WebhookRef = z.output<typeof webhookRefSchema>;

/** The webhooks of a room, in id order (`GET /v2/room/{room}/webhook`); reads `limit` from `startIndex`. */
export const ListWebhooksV1 = defineCommand<{ webhooks: WebhookView[] }>('webhooks.list-webhooks.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  startIndex: z.number().int().min(0),
  limit: z.number().int().min(1).max(1001),
}), { query: true });

export const GetWebhookV1 = defineCommand<{ webhook: WebhookView }>('webhooks.get-webhook.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  webhook: webhookRefSchema,
}), { query: true });

/** Deletes a webhook; those an installed add-on declared are refused (forbidden). */
export const DeleteWebhookV1 = defineCommand<Record<string, never>>('webhooks.delete-webhook.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  webhook: webhookRefSchema,
}));

/**
 * Every registration with its secret: what a dispatcher replica loads at start, on each
 * `webhook.registrations-changed.v1` notice, and when an event's `registrationsVersion` is
 * newer than its index. `version` is the registrations' version of this very snapshot.
 * Each registration carries the versions it is in force for (see WebhookRegistration).
 * Never exposed through the API.
 */
export const ListRegistrationsV1 = defineCommand<{
  registrations: WebhookRegistration[];
  /** Forms removed or replaced lately, each with its `removedVersion`: for events caused before. */
  removed: WebhookRegistration[];
  version: number;
}>('webhooks.list-registrations.v1', z.object({}), { query: true });
