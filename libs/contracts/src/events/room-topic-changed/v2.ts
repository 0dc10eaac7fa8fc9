import { RoomObject, Sender } from '../../models';
import { defineRoomEvent } from '../envelope';

/** A room's topic changed. Webhook event: room_topic_change. */
export interface RoomTopicChangedV2Payload { room: RoomObject; sender: Sender; topic: string }
export const RoomTopicChangedV2 = defineRoomEvent<RoomTopicChangedV2Payload>('room.topic-changed', 2);
