import { z } from 'zod';
import { RoomStatisticsView } from '../../models/views';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';

/** How much a room was used (v2 statistics), for whoever may see the room (as GET of the room). */
export const GetRoomStatisticsV1 = defineCommand<{ statistics: RoomStatisticsView }>('rooms.get-room-statistics.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
}), { query: true });
