import { defineCommand } from '../define-command';
import { presenceSchema } from './enter-room';

/** The user exits the room (room_exit); a user not in the room changes nothing and succeeds. */
export const ExitRoomV1 = defineCommand<Record<string, never>>('rooms.exit-room.v1', presenceSchema);
