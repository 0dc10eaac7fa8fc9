import { z } from 'zod';
import { field } from '../../rules/fields';
import { cardSchema } from '../../rules/card';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';

/** Which webhook delivery a notification answers, and how deep the chain of replies is. */
export interface CausedBy { webhookId: number; deliveryId: string; depth: number }
export const causedBySchema: z.ZodType<CausedBy> = z.object({
  webhookId: z.number().int().positive(),
  deliveryId: z.string().max(100),
  depth: z.number().int().min(1).max(100),
});

export const SendNotificationV1 = defineCommand<{ messageId: string; date: string }>('rooms.send-notification.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  /** Shown as the sender. v1 always gives one; absent (v2): the actor's user's name, else the token's label. */
  from: field.notificationFrom.optional(),
  /** As the sender wrote it: the rooms service sanitizes html. */
  message: field.messageText,
  messageFormat: field.messageFormat,
  notify: field.flag,
  /** `random` is resolved by the rooms service, which stores the colour it chose. */
  color: field.color,
  /** v2: a card shown with the notification. */
  card: cardSchema.optional(),
  /** v2: the id of a message of the same room that this notification is attached to. */
  attachTo: z.string().max(100).optional(),
  /** A webhook's reply: carried into the event, so the reply is not delivered back to that webhook. */
  causedBy: causedBySchema.optional(),
}));
