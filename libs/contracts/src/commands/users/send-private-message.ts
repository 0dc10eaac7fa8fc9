import { z } from 'zod';
import { field } from '../../rules/fields';
import { defineCommand } from '../define-command';
import { actorSchema, userRefSchema } from '../refs';

/**
 * A one-to-one message from the acting user (v2 personal tokens) to another user. Kept in
 * private_messages; no room event: webhooks are about rooms.
 */
export const SendPrivateMessageV1 = defineCommand<{ messageId: string; date: string }>('users.send-private-message.v1', z.object({
  actor: actorSchema,
  user: userRefSchema,
  message: field.messageText.pipe(z.string().min(1, 'must not be empty')),
  messageFormat: field.messageFormat,
  notify: field.flag,
}));
