import { WebhookSpec, webhookField, webhookSpecSchema } from '@app/contracts';
import { z } from 'zod';
import { pageQuery } from '../http/pagination';
import { optionalField } from '../http/validation';

/**
 * PUT /v2/room/{room}/extension/webhook/{key}: the contracts' rules, with the optional
 * fields also accepted as null (and an empty pattern as none); unknown fields are dropped.
 */
export const webhookBody = webhookSpecSchema.extend({
  pattern: optionalField(webhookField.pattern, true),
  name: optionalField(webhookField.name),
  authentication: optionalField(webhookField.authentication),
});
export type WebhookBody = z.output<typeof webhookBody>;

/** POST /v2/room/{room}/webhook: the same, with an optional key. */
export const createWebhookBody = webhookBody.extend({
  key: optionalField(webhookField.key),
});
export type CreateWebhookBody = z.output<typeof createWebhookBody>;

export const webhookListQuery = z.object(pageQuery);
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
  };
}
