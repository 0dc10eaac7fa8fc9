import {
  CreateRoomV1, DeleteRoomV1, field, GetHistoryV2, GetRoomV1, historyEdges, ListRoomsV1, readHistoryDate, SendNotificationV1, SetTopicV1,
} from '@app/contracts';
import { toV1HistoryMessage, toV1Room, toV1RoomDetail } from '../presenters';
import { flag, ownerRef, roomRef, valid, validOptional, validRequired } from '../rules';
import { ADMIN, ANY_TOKEN, optional, required, v1Method } from './method';

/**
 * rooms/*. Parameters are checked in the order the v1 API always checked them, so that a
 * request breaking several rules is told the same first one.
 */
export const ROOMS_METHODS = {
  'rooms/create': v1Method({
    doc: { summary: 'Create a room', params: { name: required('Name of the room, at most 50 characters, not only digits'), owner_user_id: required('ID or e-mail address of the user who owns the room (all digits is an ID)'), privacy: optional('public (default) or private'), topic: optional('Topic of the room'), guest_access: optional('1 to allow guest access') } },
    verbs: ['POST'],
    kinds: ADMIN,
    command: CreateRoomV1,
    request: (p, actor) => ({
      actor,
      name: validRequired(p, 'name', field.roomName),
      owner: ownerRef(p),
      privacy: validOptional(p, 'privacy', field.privacy, 'public' as const),
      topic: validOptional(p, 'topic', field.topic, ''),
      guestAccess: flag(p, 'guest_access', false),
    }),
    present: (reply) => ({ room: toV1Room(reply.room) }),
  }),

  'rooms/delete': v1Method({
    doc: { summary: 'Delete a room', params: { room_id: required('ID or name of the room (all digits is an ID)') } },
    verbs: ['POST'],
    kinds: ADMIN,
    command: DeleteRoomV1,
    request: (p, actor) => ({ actor, room: roomRef(p) }),
    present: () => ({ deleted: true }),
  }),

  'rooms/history': v1Method({
    doc: { summary: 'The messages of a room: the newest 75, or those of one day', params: { room_id: required('ID or name of the room (all digits is an ID)'), date: required('recent, or a day as YYYY-MM-DD'), timezone: optional('Time zone of the day and of the dates answered (default UTC)') } },
    verbs: ['GET'],
    kinds: ADMIN,
    command: GetHistoryV2,
    // `recent`: the newest 75 messages; a date: that whole day in `timezone`.
    request: (p) => {
      const date = valid('date', field.historyDate, p.required('date'));
      const timezone = validOptional(p, 'timezone', field.timezone, 'UTC');
      const day = date === 'recent' ? null : readHistoryDate(date, timezone);
      return {
        room: roomRef(p), recentOnly: day === null, offset: 0, details: false,
        ...(day ? historyEdges(day.start, day.end) : {}),
      };
    },
    present: (reply, _request, p) => {
      const timezone = validOptional(p, 'timezone', field.timezone, 'UTC');
      return { messages: reply.messages.map((m) => toV1HistoryMessage(m, timezone)) };
    },
  }),

  'rooms/list': v1Method({
    doc: { summary: 'List rooms', params: {  } },
    verbs: ['GET'],
    kinds: ADMIN,
    command: ListRoomsV1,
    request: () => ({}),
    present: (reply) => ({ rooms: reply.rooms.map(toV1Room) }),
  }),

  'rooms/message': v1Method({
    doc: { summary: 'Send a message to a room (a notification from a label)', params: { room_id: required('ID or name of the room (all digits is an ID)'), from: required('Name the message is from, at most 15 characters'), message: required('The message, at most 10,000 characters'), message_format: optional('html (default; sanitized) or text'), notify: optional('1 to notify the users of the room'), color: optional('yellow (default), red, green, purple, gray or random') } },
    verbs: ['GET', 'POST'],
    kinds: ANY_TOKEN,
    command: SendNotificationV1,
    // The message goes as written: the rooms service sanitizes html and resolves color=random.
    request: (p, actor) => ({
      actor,
      room: roomRef(p),
      from: validRequired(p, 'from', field.senderLabel),
      message: validRequired(p, 'message', field.messageText),
      messageFormat: validOptional(p, 'message_format', field.messageFormat, 'html' as const),
      notify: flag(p, 'notify', false),
      color: validOptional(p, 'color', field.color, 'yellow' as const),
    }),
    present: () => ({ status: 'sent' }),
  }),

  'rooms/show': v1Method({
    doc: { summary: 'A room with its participants', params: { room_id: required('ID or name of the room (all digits is an ID)') } },
    verbs: ['GET'],
    kinds: ADMIN,
    command: GetRoomV1,
    request: (p) => ({ room: roomRef(p) }),
    present: (reply) => ({ room: toV1RoomDetail(reply.room) }),
  }),

  'rooms/topic': v1Method({
    doc: { summary: 'Set the topic of a room', params: { room_id: required('ID or name of the room (all digits is an ID)'), topic: required('The new topic, at most 250 characters'), from: optional('Name shown as the author of the topic (default API)') } },
    verbs: ['POST'],
    kinds: ANY_TOKEN,
    command: SetTopicV1,
    request: (p, actor) => ({
      actor,
      room: roomRef(p),
      topic: validRequired(p, 'topic', field.topic),
      from: validOptional(p, 'from', field.topicFrom, 'API'),
    }),
    present: () => ({ status: 'ok' }),
  }),
};
