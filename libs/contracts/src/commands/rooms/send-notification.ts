import { z } from 'zod';
import { field } from '../../rules/fields';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';

export const SendNotificationV1 = defineCommand<{ messageId: string; date: string }>('rooms.send-notification.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  from: field.notificationFrom,
  /** As the sender wrote it: the rooms service sanitizes html. */
  message: field.messageText,
  messageFormat: field.messageFormat,
  notify: field.flag,
  /** `random` is resolved by the rooms service, which stores the colour it chose. */
  color: field.color,
}));
