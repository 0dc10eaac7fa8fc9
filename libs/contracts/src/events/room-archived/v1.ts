import { RoomObject, Sender } from '../../models';
import { defineEvent } from '../envelope';

/** A room was archived. Webhook event: room_archived. */
export interface RoomArchivedV1Payload { room: RoomObject; sender: Sender }
export const RoomArchivedV1 = defineEvent<RoomArchivedV1Payload>('room.archived', 1);
