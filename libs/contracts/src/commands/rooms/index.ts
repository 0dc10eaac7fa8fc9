import { z } from 'zod';
import { HistoryMessageView, RoomDetailView, RoomView } from '../../models/views';
import { field } from '../../rules/fields';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema, userRefSchema } from '../refs';

/** One command per intent; each serves every API version that needs it. */

export const CreateRoomV1 = defineCommand<{ room: RoomView }>('rooms.create-room.v1', z.object({
  actor: actorSchema,
  name: field.roomName,
  owner: userRefSchema,
  privacy: field.privacy,
  topic: field.topic,
  guestAccess: field.flag,
}));

export const DeleteRoomV1 = defineCommand<Record<string, never>>('rooms.delete-room.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
}));

export const GetRoomV1 = defineCommand<{ room: RoomDetailView }>('rooms.get-room.v1', z.object({ room: roomRefSchema }));

export const ListRoomsV1 = defineCommand<{ rooms: RoomView[] }>('rooms.list-rooms.v1', z.object({}));

export const GetHistoryV1 = defineCommand<{ messages: HistoryMessageView[] }>('rooms.get-history.v1', z.object({
  room: roomRefSchema,
  /** `recent` or a calendar date YYYY-MM-DD in `timezone`. */
  date: field.historyDate,
  timezone: field.timezone,
}));

export const SendNotificationV1 = defineCommand<{ messageId: string; date: string }>('rooms.send-notification.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  from: field.notificationFrom,
  /** As the sender wrote it: the rooms service sanitizes html. */
  message: field.messageText,
  messageFormat: field.messageFormat,
  notify: field.flag,
  /** `random` is resolved by the rooms service, which stores the colour it chose. */
  color: field.color,
}));

export const SetTopicV1 = defineCommand<Record<string, never>>('rooms.set-topic.v1', z.object({
  actor: actorSchema,
  room: roomRefSchema,
  topic: field.topic,
  from: field.topicFrom,
}));
