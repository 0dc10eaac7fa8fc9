import { field, UNREAD_CAP } from '@app/contracts';
import { z } from 'zod';

/** The body of PUT /v2/room/{room}/read and PUT /v2/user/{user}/read. */
export const readBody = z.object({
  message_id: field.messageId.describe('The newest message read: of this room (PUT …/room/{room}/read), or of the private chat with {user} (PUT …/user/{user}/read), sent either way'),
});
export type ReadBody = z.output<typeof readBody>;

const chatState = {
  unread: z.number().int().min(0).max(UNREAD_CAP)
    .describe(`Messages after the read marker not sent by the user, counted up to ${UNREAD_CAP}: ${UNREAD_CAP} means ${UNREAD_CAP} or more`),
  mentioned: z.boolean().describe(`One of the unread messages (the newest ${UNREAD_CAP}) mentions the user`),
  last_message: z.object({ id: z.string(), date: z.string().describe('ISO-8601') }).nullable().describe('The chat\'s newest message; null when it has none'),
  links: z.object({ self: z.string() }),
};

/** An item of GET /v2/user/{user}/chats, for the OpenAPI document. */
export const chatItemSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('room'), id: z.number().int(), name: z.string(), privacy: z.enum(['public', 'private']), ...chatState }),
  z.object({ type: z.literal('user'), id: z.number().int(), name: z.string(), mention_name: z.string(), ...chatState }),
]);

export const chatsResponse = z.object({ items: z.array(chatItemSchema), links: z.object({ self: z.string() }) });
