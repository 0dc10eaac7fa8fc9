import { z } from 'zod';
import { WebhookView } from '../../models/webhook-registration';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';
import { webhookField, webhookSpecSchema } from './webhook-fields';

/**
 * Registers a webhook of a room (`POST /v2/room/{room}/webhook`). The answer carries the
 * webhook's signing secret: the only time it is shown. None for a webhook an add-on's token
 * registers: it signs with the add-on's oauthSecret, which the add-on already holds.
 */
export const CreateWebhookV1 = defineCommand<{ webhook: WebhookView; secret?: string }>('webhooks.create-webhook.v1', webhookSpecSchema.extend({
  actor: actorSchema,
  room: roomRefSchema,
  key: webhookField.key.optional(),
}));
