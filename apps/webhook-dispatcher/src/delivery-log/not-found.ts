import { commandFailure, CommandFailure } from '@app/contracts';

/** No delivery with this id, or none of the webhook named: the same answer, so ids of other webhooks are not confirmed. */
export const deliveryNotFound = (id: string): CommandFailure => commandFailure('not_found', 'delivery_not_found', 'delivery', { ref: id });

/** The delivery, when it is the named webhook's (or when no webhook is named: the operator's CLI). */
export function ofWebhook<T extends { webhook_id: number }>(row: T | undefined, id: string, webhookId: number | undefined): T {
  if (!row || (webhookId !== undefined && row.webhook_id !== webhookId)) throw deliveryNotFound(id);
  return row;
}
