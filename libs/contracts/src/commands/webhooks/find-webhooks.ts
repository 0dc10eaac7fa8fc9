import { z } from 'zod';
import { WebhookRegistration, WebhookView } from '../../models/webhook-registration';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';
import { webhookField } from './webhook-fields';
import { idSchema } from '../../rules/ids';

/** One webhook of a room, by its id or by its key. */
export const webhookRefSchema = z.union([
  z.object({ id: idSchema }).strict(),
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
 * What a dispatcher says of itself when it asks for registrations: `sealedUrls`, it opens the
 * URLs sealed at rest itself. To one that does not say so (a dispatcher of the version before
 * URLs were sealed, still running during a rolling upgrade) they are sent opened, as they were
 * then: it would otherwise take the sealed text for the address to post to.
 */
const registrationsAsker = { sealedUrls: z.boolean().optional() };

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
}>('webhooks.list-registrations.v1', z.object(registrationsAsker), { query: true });

/**
 * The registration changes since `since` (the version of a dispatcher replica's index):
 * the forms in force now that were written after it (`createdVersion > since`: registered,
 * changed, disabled or enabled since), the forms removed or replaced after it
 * (`removedVersion > since`), and `version`, the registrations' version of this very
 * snapshot. An index holding every registration at `since` holds every registration at
 * `version` once it drops the forms in force of the registrations `removed` names and adds
 * both lists: what a dispatcher replica loads instead of ListRegistrationsV1 once it has
 * an index. Removed forms are kept 7 days: a `since` older than that misses removals, so a
 * dispatcher loads everything again long before. Never exposed through the API.
 */
export const ListRegistrationChangesV1 = defineCommand<{
  /** Forms in force now, written after `since`. */
  registrations: WebhookRegistration[];
  /** Forms removed or replaced after `since`, each with its `removedVersion`. */
  removed: WebhookRegistration[];
  version: number;
}>('webhooks.list-registration-changes.v1', z.object({ since: z.number().int().min(0), ...registrationsAsker }), { query: true });
