import { z } from 'zod';
import { RoomDetailView } from '../../models/views';
import { defineCommand } from '../define-command';
import { roomRefSchema } from '../refs';

export const GetRoomV1 = defineCommand<{ room: RoomDetailView }>('rooms.get-room.v1', z.object({ room: roomRefSchema }));
