import { RoomObject, Sender } from '../../models';
import { defineEvent } from '../envelope';

/** A room's topic changed. Webhook event: room_topic_change. */
export interface RoomTopicChangedV1Payload { room: RoomObject; sender: Sender; topic: string }
export const RoomTopicChangedV1 = defineEvent<RoomTopicChangedV1Payload>('room.topic-changed', 1);
