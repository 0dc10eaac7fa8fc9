import {
  Actor, CreateRoomRequestV1, CreateUserRequestV1, DeleteRoomRequestV1, HistoryRequestV1, ListUsersRequestV1,
  RoomRefRequestV1, RoomsCommandV1, SendNotificationReplyV1, SendNotificationRequestV1, SetTopicRequestV1, TokenKind,
  UpdateUserRequestV1, UserRefRequestV1, UsersCommandV1,
} from '@app/contracts';
import { badRequest } from './errors';
import { V1Params } from './params';
import * as rule from './rules';
import { sanitizeMessageHtml } from './sanitize';

export type HttpVerb = 'GET' | 'POST';

export interface V1Command {
  pattern: string;
  payload: unknown;
}

/** One v1 method: who may call it, how, and how its parameters become a command. */
export interface V1MethodSpec {
  verbs: readonly HttpVerb[];
  kinds: readonly TokenKind[];
  /** Validates the parameters (400 naming the parameter and the rule) and builds the command. */
  command(params: V1Params, actor: Actor): V1Command;
  /** The success body, from the command's reply (default: the reply as it is). */
  body?(reply: unknown): Record<string, unknown>;
}

const ADMIN = ['admin'] as const;
const ANY_TOKEN = ['admin', 'notification'] as const;

const cmd = <T>(pattern: string, payload: T): V1Command => ({ pattern, payload });

function userFields(p: V1Params) {
  const email = p.optional('email');
  const name = p.optional('name');
  const mention = p.optional('mention_name');
  const title = p.optional('title');
  const password = p.optional('password');
  const isAdmin = p.optional('is_group_admin') === undefined ? undefined : rule.flag(p, 'is_group_admin', false);
  const tz = p.optional('timezone') === undefined ? undefined : rule.timezone(p);
  return {
    email: email === undefined ? undefined : rule.email(email),
    name: name === undefined ? undefined : rule.displayName(name),
    mentionName: mention === undefined ? undefined : rule.mentionName(mention),
    title: title === undefined ? undefined : rule.title(title),
    isGroupAdmin: isAdmin,
    password: password === undefined ? undefined : rule.password(password),
    timezone: tz,
  };
}

export const V1_METHODS: Readonly<Record<string, V1MethodSpec>> = {
  'rooms/create': {
    verbs: ['POST'],
    kinds: ADMIN,
    command: (p, actor) => {
      const topic = p.optional('topic');
      const privacy = p.optional('privacy');
      return cmd<CreateRoomRequestV1>(RoomsCommandV1.create, {
        actor,
        name: rule.roomName(p.required('name')),
        ownerUserId: rule.positiveId('owner_user_id', p.required('owner_user_id')),
        privacy: privacy === undefined ? 'public' : rule.oneOf('privacy', privacy, ['public', 'private'] as const),
        topic: topic === undefined ? '' : rule.topicText('topic', topic),
        guestAccess: rule.flag(p, 'guest_access', false),
      });
    },
  },
  'rooms/delete': {
    verbs: ['POST'],
    kinds: ADMIN,
    command: (p, actor) => cmd<DeleteRoomRequestV1>(RoomsCommandV1.delete, { actor, roomIdOrName: rule.roomRef(p) }),
  },
  'rooms/history': {
    verbs: ['GET'],
    kinds: ADMIN,
    command: (p) => cmd<HistoryRequestV1>(RoomsCommandV1.history, {
      roomIdOrName: rule.roomRef(p),
      date: rule.historyDate(p.required('date')),
      timezone: rule.timezone(p),
    }),
  },
  'rooms/list': {
    verbs: ['GET'],
    kinds: ADMIN,
    command: () => cmd(RoomsCommandV1.list, {}),
  },
  'rooms/message': {
    verbs: ['GET', 'POST'],
    kinds: ANY_TOKEN,
    command: (p, actor) => {
      const roomIdOrName = rule.roomRef(p);
      const from = rule.senderLabel(p.required('from'));
      const raw = rule.messageText(p.required('message'));
      const format = rule.messageFormat(p);
      const notify = rule.flag(p, 'notify', false);
      const color = rule.color(p);
      const message = format === 'html' ? sanitizeMessageHtml(raw) : raw;
      if (message.trim() === '') throw badRequest('message: is empty once disallowed HTML is removed');
      return cmd<SendNotificationRequestV1>(RoomsCommandV1.sendNotification, {
        actor, roomIdOrName, from, message, messageFormat: format, notify, color,
      });
    },
    body: (reply) => ({ status: (reply as SendNotificationReplyV1).status }),
  },
  'rooms/show': {
    verbs: ['GET'],
    kinds: ADMIN,
    command: (p) => cmd<RoomRefRequestV1>(RoomsCommandV1.show, { roomIdOrName: rule.roomRef(p) }),
  },
  'rooms/topic': {
    verbs: ['POST'],
    kinds: ANY_TOKEN,
    command: (p, actor) => {
      const roomIdOrName = rule.roomRef(p);
      const topic = rule.topicText('topic', p.required('topic'));
      const from = p.optional('from');
      return cmd<SetTopicRequestV1>(RoomsCommandV1.setTopic, {
        actor, roomIdOrName, topic,
        from: from === undefined ? 'API' : rule.noControlCharacters('from', rule.maxLength('from', from, 64)),
      });
    },
  },
  'users/create': {
    verbs: ['POST'],
    kinds: ADMIN,
    command: (p) => {
      const email = rule.email(p.required('email'));
      const name = rule.displayName(p.required('name'));
      const fields = userFields(p);
      return cmd<CreateUserRequestV1>(UsersCommandV1.create, { ...fields, email, name });
    },
  },
  'users/delete': {
    verbs: ['POST'],
    kinds: ADMIN,
    command: (p) => cmd<UserRefRequestV1>(UsersCommandV1.delete, { userIdOrEmail: rule.userRef(p) }),
  },
  'users/list': {
    verbs: ['GET'],
    kinds: ADMIN,
    command: (p) => cmd<ListUsersRequestV1>(UsersCommandV1.list, { includeDeleted: rule.flag(p, 'include_deleted', false) }),
  },
  'users/show': {
    verbs: ['GET'],
    kinds: ADMIN,
    command: (p) => cmd<UserRefRequestV1>(UsersCommandV1.show, { userIdOrEmail: rule.userRef(p) }),
  },
  'users/undelete': {
    verbs: ['POST'],
    kinds: ADMIN,
    command: (p) => cmd<UserRefRequestV1>(UsersCommandV1.undelete, { userIdOrEmail: rule.userRef(p) }),
  },
  'users/update': {
    verbs: ['POST'],
    kinds: ADMIN,
    command: (p) => {
      const userIdOrEmail = rule.userRef(p);
      const fields = Object.fromEntries(Object.entries(userFields(p)).filter(([, v]) => v !== undefined));
      return cmd<UpdateUserRequestV1>(UsersCommandV1.update, { userIdOrEmail, ...fields });
    },
  },
};
