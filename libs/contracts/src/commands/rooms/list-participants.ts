import { z } from 'zod';
import { UserView } from '../../models/views';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';
import { userPageSchema } from './list-members';

/** Who is in a room now, in the order they entered. */
export const ListParticipantsV1 = defineCommand<{ users: UserView[] }>('rooms.list-participants.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  ...userPageSchema,
}), { query: true });
