import { WebhookView } from '../../models/webhook-registration';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';
import { webhookField, webhookSpecSchema } from './webhook-fields';

/**
 * Creates or replaces the webhook with this key (`PUT /v2/room/{room}/extension/webhook/{key}`).
 * `secret` is answered when it was created, unless an add-on's token created it (it signs
 * with the add-on's oauthSecret).
 */
export const PutWebhookV1 = defineCommand<{ webhook: WebhookView; created: boolean; secret?: string }>('webhooks.put-webhook.v1', webhookSpecSchema.extend({
  actor: actorSchema,
  room: roomRefSchema,
  key: webhookField.key,
}));
