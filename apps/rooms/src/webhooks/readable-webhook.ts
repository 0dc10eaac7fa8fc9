import type { Actor, RoomRef, WebhookRef } from '@app/contracts';
import { EntityManager } from 'typeorm';
import { assertMayActOn, mayManageWebhook, WebhookViewer } from '../rooms/room-access';
import { roomNotFound } from '../rooms/room.repository';
import { webhookNotFound } from './webhook-rules';
import { StoredWebhook, WebhookRepository } from './webhook.repository';

/**
 * The webhook a reference names, as reading it finds it (GET of a webhook, and what the
 * reads and changes made on it through the API start with: its delivery log, enabling it):
 * one statement for the room and the webhook, and the refusals in the order of those reads:
 * no such room, a room the actor may not use (a room token outside its room), no such
 * webhook in it. A user the private-room rule keeps out of the room finds no webhook in it
 * either: not_found, as is another user's or add-on's webhook to whoever may not manage it
 * (its creator, the room's owner and group admins may), so that the answer confirms no id or key.
 */
export async function readableWebhook(
  webhooks: WebhookRepository, m: EntityManager, room: RoomRef, actor: Actor, ref: WebhookRef,
): Promise<{ webhook: StoredWebhook; viewer: WebhookViewer }> {
  const found = await webhooks.findWithRoom(m, room, actor, ref);
  if (!found.room) throw roomNotFound(room);
  assertMayActOn(actor, found.room, room, found.viewer.standing, () => webhookNotFound(ref));
  if (!found.webhook || !mayManageWebhook(found.viewer, found.webhook)) throw webhookNotFound(ref);
  return { webhook: found.webhook, viewer: found.viewer };
}
