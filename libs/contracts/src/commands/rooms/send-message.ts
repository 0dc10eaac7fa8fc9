import { z } from 'zod';
import { field } from '../../rules/fields';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';

/**
 * A user's message (v2 POST room/{room}/message): sent as the actor's user, so the actor
 * must have one (a personal token). Plain text: @mentions and the last link are extracted.
 */
export const SendMessageV1 = defineCommand<{ id: string; date: string }>('rooms.send-message.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  message: field.messageText,
}));
