import { z } from 'zod';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';

export const DeleteRoomV1 = defineCommand<Record<string, never>>('rooms.delete-room.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
}), { alone: true });
