import { z } from 'zod';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema, userRefSchema } from '../refs';

/** A message id as a client sends it: the rooms service answers one it does not know as a rule broken (400 naming message_id). */
const messageId = z.string().max(100);

/**
 * The acting user has read a room up to one of its messages (PUT /v2/room/{room}/read): the
 * read marker moves forward only. For whoever may see the room; an actor without a user is refused.
 */
export const MarkRoomReadV1 = defineCommand<Record<string, never>>('chats.mark-room-read.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  messageId,
}));

/** The acting user has read their private chat with `user` up to one of its messages (PUT /v2/user/{user}/read). */
export const MarkPrivateChatReadV1 = defineCommand<Record<string, never>>('chats.mark-private-chat-read.v1', z.object({
  actor: actorSchema,
  user: userRefSchema,
  messageId,
}));
