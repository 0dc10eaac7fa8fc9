import { z } from 'zod';
import { HistoryMessageView } from '../../models/views';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';

/** One message of a room by its id (v2 history/{message_id}); an unknown id is message_not_found. */
export const GetMessageV1 = defineCommand<{ message: HistoryMessageView }>('rooms.get-message.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  messageId: z.string().max(100),
}), { query: true });
