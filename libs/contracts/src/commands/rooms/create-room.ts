import { z } from 'zod';
import { RoomView } from '../../models/views';
import { field } from '../../rules/fields';
import { defineCommand } from '../define-command';
import { actorSchema, userRefSchema } from '../refs';

export const CreateRoomV1 = defineCommand<{ room: RoomView }>('rooms.create-room.v1', z.object({
  actor: actorSchema,
  name: field.roomName,
  /** v1 always names the owner; v2 may leave it out: the actor's user then owns the room. */
  owner: userRefSchema.optional(),
  privacy: field.privacy,
  topic: field.topic,
  guestAccess: field.flag,
}));
