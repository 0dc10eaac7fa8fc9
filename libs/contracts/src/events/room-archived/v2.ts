import { RoomObject, Sender } from '../../models';
import { defineRoomEvent } from '../envelope';

/** A room was archived. Webhook event: room_archived. */
export interface RoomArchivedV2Payload { room: RoomObject; sender: Sender }
export const RoomArchivedV2 = defineRoomEvent<RoomArchivedV2Payload>('room.archived', 2);
