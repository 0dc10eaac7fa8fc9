import { z } from 'zod';
import { RoomView } from '../../models/views';
import { field } from '../../rules/fields';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema, userRefSchema } from '../refs';

/**
 * Changes a room's attributes (v2 PUT room/{id_or_name}); an absent field keeps its value.
 * A change gives the room a new version; archiving emits room_archived, unarchiving
 * room_unarchived, a new topic room_topic_change. A rename takes the name-taken rule.
 */
export const UpdateRoomV1 = defineCommand<{ room: RoomView }>('rooms.update-room.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  name: field.roomName.optional(),
  privacy: field.privacy.optional(),
  topic: field.topic.optional(),
  isArchived: field.flag.optional(),
  /** True gives the room a guest access URL (kept if it has one), false takes it away. */
  guestAccess: field.flag.optional(),
  owner: userRefSchema.optional(),
}));
