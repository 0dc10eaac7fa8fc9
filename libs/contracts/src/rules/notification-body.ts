import { z, ZodTypeAny } from 'zod';
import type { RequestOf } from '../commands/define-command';
import type { Actor, RoomRef } from '../commands/refs';
import type { CausedBy, SendNotificationV1 } from '../commands/rooms/send-notification';
import { cardSchema } from './card';
import { field } from './fields';
import { bodyFlag, optionalField } from './request-body';
import { maxLengthProblem, text } from './text';

/** An optional field that clients also send as null, or as "" meaning none. */
const optional = <S extends ZodTypeAny>(schema: S) => optionalField(schema, true);

/** The text of a message or notification someone sends: 1 to 10,000 characters. */
export const sentMessageText = field.messageText.pipe(z.string().min(1, 'must not be empty'));

/**
 * The body of v2 send-room-notification, and of a webhook receiver's reply (which becomes a
 * notification validated exactly the same way). Unknown fields are dropped.
 */
export const notificationBodySchema = z.object({
  message: sentMessageText,
  color: optional(field.color),
  notify: optional(bodyFlag),
  message_format: optional(field.messageFormat),
  from: optional(field.notificationFrom),
  attach_to: optional(text((v) => maxLengthProblem(v, 100))),
  card: optional(cardSchema),
});
export type NotificationBody = z.output<typeof notificationBodySchema>;

/**
 * The send-notification command of a v2 body, with HipChat's defaults (yellow, html, no
 * notify). `causedBy` is set for a webhook's reply.
 */
export function notificationCommand(
  actor: Actor, room: RoomRef, b: NotificationBody, causedBy?: CausedBy,
): RequestOf<typeof SendNotificationV1> {
  return {
    actor,
    room,
    message: b.message,
    messageFormat: b.message_format ?? 'html',
    notify: b.notify ?? false,
    color: b.color ?? 'yellow',
    ...(b.from !== undefined ? { from: b.from } : {}),
    ...(b.card !== undefined ? { card: b.card } : {}),
    ...(b.attach_to !== undefined ? { attachTo: b.attach_to } : {}),
    ...(causedBy !== undefined ? { causedBy } : {}),
  };
}
