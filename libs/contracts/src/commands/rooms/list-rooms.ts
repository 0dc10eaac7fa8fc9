import { z } from 'zod';
import { RoomView } from '../../models/views';
import { defineCommand } from '../define-command';

export const ListRoomsV1 = defineCommand<{ rooms: RoomView[] }>('rooms.list-rooms.v1', z.object({}));
