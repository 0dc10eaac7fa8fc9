import {
  CreateRoomV1, CreateUserV1, DeleteRoomV1, DeleteUserV1, GetHistoryV2, GetRoomV1, GetUserV1, ListRoomsV1, ListUsersV1,
  RoomDetailView, RoomView, SendNotificationV1, SetTopicV1, UndeleteUserV1, UpdateUserV1, UserView,
} from '@app/contracts';
import { RequestParams } from '../../shared/request-params';
import { V1Error } from '../errors';
import { servedVerbs, V1_METHODS } from './index';

const actor = { tokenId: 7, label: 'ci' };

function build(method: string, query: Record<string, string>, body?: Record<string, string>) {
  const spec = V1_METHODS[method];
  if (!spec) throw new Error(`no method ${method}`);
  return { command: spec.command.pattern, payload: spec.request(RequestParams.decode(query, body), actor) as any };
}

/** Expects a 400 whose message begins with the parameter's name; returns the message. */
function rejects(param: string, method: string, query: Record<string, string>): string {
  let caught: unknown;
  try {
    build(method, query);
  } catch (err) {
    caught = err;
  }
  const err = caught as Error;
  expect(err).toBeInstanceOf(Error);
  if (err instanceof V1Error) expect(err.status).toBe(400);
  expect(err.message.startsWith(`${param}: `)).toBe(true);
  return err.message;
}

/** The payload passes the command's own schema: what the rooms service will check. */
function acceptedByCommand(method: string, query: Record<string, string>): void {
  const spec = V1_METHODS[method];
  const result = spec.command.schema.safeParse(build(method, query).payload);
  expect(result.error?.issues ?? []).toEqual([]);
}

const MSG = { room_id: '12', from: 'Bot', message: 'hello' };
const NO_PARAMS = RequestParams.decode({}, undefined);

describe('v1 methods', () => {
  it('has exactly the v1 methods, with their verbs and token kinds', () => {
    const table = Object.fromEntries(Object.entries(V1_METHODS).map(([k, v]) => [k, { verbs: [...v.verbs], kinds: [...v.kinds] }]));
    const admin = ['admin'];
    expect(table).toEqual({
      'rooms/create': { verbs: ['POST'], kinds: admin },
      'rooms/delete': { verbs: ['POST'], kinds: admin },
      'rooms/history': { verbs: ['GET'], kinds: admin },
      'rooms/list': { verbs: ['GET'], kinds: admin },
      'rooms/message': { verbs: ['GET', 'POST'], kinds: ['admin', 'notification'] },
      'rooms/show': { verbs: ['GET'], kinds: admin },
      'rooms/topic': { verbs: ['POST'], kinds: ['admin', 'notification'] },
      'users/create': { verbs: ['POST'], kinds: admin },
      'users/delete': { verbs: ['POST'], kinds: admin },
      'users/list': { verbs: ['GET'], kinds: admin },
      'users/show': { verbs: ['GET'], kinds: admin },
      'users/undelete': { verbs: ['POST'], kinds: admin },
      'users/update': { verbs: ['POST'], kinds: admin },
    });
  });

  it('serves HEAD beside each GET that only reads, never beside rooms/message\'s GET (it sends)', () => {
    const served = Object.fromEntries(Object.entries(V1_METHODS).map(([k, v]) => [k, servedVerbs(v).join(', ')]));
    expect(served).toEqual({
      'rooms/create': 'POST', 'rooms/delete': 'POST', 'rooms/history': 'GET, HEAD', 'rooms/list': 'GET, HEAD',
      'rooms/message': 'GET, POST', 'rooms/show': 'GET, HEAD', 'rooms/topic': 'POST', 'users/create': 'POST',
      'users/delete': 'POST', 'users/list': 'GET, HEAD', 'users/show': 'GET, HEAD', 'users/undelete': 'POST', 'users/update': 'POST',
    });
  });

  it('sends the commands named by intent', () => {
    const commands = Object.fromEntries(Object.entries(V1_METHODS).map(([k, v]) => [k, v.command]));
    expect(commands).toEqual({
      'rooms/create': CreateRoomV1, 'rooms/delete': DeleteRoomV1, 'rooms/history': GetHistoryV2, 'rooms/list': ListRoomsV1,
      'rooms/message': SendNotificationV1, 'rooms/show': GetRoomV1, 'rooms/topic': SetTopicV1,
      'users/create': CreateUserV1, 'users/delete': DeleteUserV1, 'users/list': ListUsersV1, 'users/show': GetUserV1,
      'users/undelete': UndeleteUserV1, 'users/update': UpdateUserV1,
    });
  });

  describe('rooms/message', () => {
    it('builds the send-notification command with the defaults', () => {
      expect(build('rooms/message', MSG)).toEqual({
        command: 'rooms.send-notification.v1',
        payload: { actor, room: { id: 12 }, from: 'Bot', message: 'hello', messageFormat: 'html', notify: false, color: 'yellow' },
      });
      acceptedByCommand('rooms/message', MSG);
    });

    it('takes a room name with spaces as room_id', () => {
      expect(build('rooms/message', { ...MSG, room_id: 'Ops Room' }).payload.room).toEqual({ name: 'Ops Room' });
    });

    it('treats empty optional values as absent', () => {
      const { payload } = build('rooms/message', { ...MSG, color: '', notify: '', message_format: '' });
      expect(payload).toMatchObject({ color: 'yellow', notify: false, messageFormat: 'html' });
    });

    it('reads notify as 0/1/true/false', () => {
      expect(build('rooms/message', { ...MSG, notify: '1' }).payload.notify).toBe(true);
      expect(build('rooms/message', { ...MSG, notify: 'true' }).payload.notify).toBe(true);
      expect(build('rooms/message', { ...MSG, notify: '0' }).payload.notify).toBe(false);
      expect(build('rooms/message', { ...MSG, notify: 'false' }).payload.notify).toBe(false);
      expect(rejects('notify', 'rooms/message', { ...MSG, notify: 'maybe' })).toContain('maybe');
    });

    it('passes the colour as asked, random included (the rooms service resolves it)', () => {
      expect(build('rooms/message', { ...MSG, color: 'purple' }).payload.color).toBe('purple');
      expect(build('rooms/message', { ...MSG, color: 'random' }).payload.color).toBe('random');
      acceptedByCommand('rooms/message', { ...MSG, color: 'random' });
      rejects('color', 'rooms/message', { ...MSG, color: 'blue' });
    });

    it('sends html messages as written (the rooms service sanitizes them)', () => {
      const html = '<b onclick="x()">hi</b><script>evil()</script>';
      expect(build('rooms/message', { ...MSG, message: html }).payload).toMatchObject({ message: html, messageFormat: 'html' });
      expect(build('rooms/message', { ...MSG, message: html, message_format: 'text' }).payload).toMatchObject({ message: html, messageFormat: 'text' });
    });

    it('applies the from rule: fewer than 15 characters of letters, digits, "-", "_", space', () => {
      expect(build('rooms/message', { ...MSG, from: 'Build-Bot_ 14c' }).payload.from).toBe('Build-Bot_ 14c');
      expect(rejects('from', 'rooms/message', { ...MSG, from: 'Fifteen chars!!' })).toBeTruthy();
      expect(rejects('from', 'rooms/message', { ...MSG, from: 'a'.repeat(15) })).toContain('15');
      rejects('from', 'rooms/message', { ...MSG, from: 'bot.example' });
    });

    it('allows at most 10,000 characters of message', () => {
      expect(build('rooms/message', { ...MSG, message: 'm'.repeat(10_000) }).payload.message).toHaveLength(10_000);
      expect(rejects('message', 'rooms/message', { ...MSG, message: 'm'.repeat(10_001) })).toContain('10,000');
    });

    it('refuses an unknown message_format', () => {
      rejects('message_format', 'rooms/message', { ...MSG, message_format: 'markdown' });
    });

    it('answers 400 naming each missing required parameter', () => {
      for (const name of ['room_id', 'from', 'message']) {
        const q: Record<string, string> = { ...MSG };
        delete q[name];
        expect(rejects(name, 'rooms/message', q)).toBe(`${name}: is required`);
      }
    });

    it('checks parameters in the v1 order: room_id, from, message, message_format, notify, color', () => {
      expect(rejects('from', 'rooms/message', { room_id: '1', from: 'bad!', message: 'm'.repeat(10_001), color: 'blue' })).toMatch(/^from/);
      expect(rejects('message', 'rooms/message', { room_id: '1', from: 'ok', message: 'm'.repeat(10_001), color: 'blue' })).toMatch(/^message/);
      expect(rejects('notify', 'rooms/message', { ...MSG, notify: 'x', color: 'blue' })).toMatch(/^notify/);
    });

    it('answers only the status', () => {
      expect(V1_METHODS['rooms/message'].present({ messageId: 'abc', date: '2020-01-01T00:00:00.000Z' }, {}, NO_PARAMS)).toEqual({ status: 'sent' });
    });
  });

  describe('rooms/topic', () => {
    it('builds the set-topic command, from defaulting to API', () => {
      expect(build('rooms/topic', { room_id: 'Ops Room', topic: 'Deploy at 5' })).toEqual({
        command: 'rooms.set-topic.v1',
        payload: { actor, room: { name: 'Ops Room' }, topic: 'Deploy at 5', from: 'API' },
      });
      expect(build('rooms/topic', { room_id: '1', topic: 't', from: 'Jenkins' }).payload.from).toBe('Jenkins');
      expect(build('rooms/topic', { room_id: '1', topic: 't', from: '' }).payload.from).toBe('API');
      acceptedByCommand('rooms/topic', { room_id: '1', topic: 't' });
    });

    it('allows at most 250 characters and no HTML; from at most 64 characters', () => {
      expect(build('rooms/topic', { room_id: '1', topic: 't'.repeat(250) }).payload.topic).toHaveLength(250);
      expect(rejects('topic', 'rooms/topic', { room_id: '1', topic: 't'.repeat(251) })).toContain('250');
      expect(rejects('topic', 'rooms/topic', { room_id: '1', topic: '<b>bold</b>' })).toContain('HTML');
      expect(rejects('from', 'rooms/topic', { room_id: '1', topic: 't', from: 'f'.repeat(65) })).toContain('64');
    });

    it('requires room_id and topic', () => {
      rejects('room_id', 'rooms/topic', { topic: 't' });
      rejects('topic', 'rooms/topic', { room_id: '1' });
    });

    it('answers {status: "ok"}', () => {
      expect(V1_METHODS['rooms/topic'].present({}, {}, NO_PARAMS)).toEqual({ status: 'ok' });
    });
  });

  describe('rooms/create', () => {
    it('builds the create command with the defaults', () => {
      expect(build('rooms/create', { name: 'Ops Room', owner_user_id: '3' })).toEqual({
        command: 'rooms.create-room.v1',
        payload: { actor, name: 'Ops Room', owner: { id: 3 }, privacy: 'public', topic: '', guestAccess: false },
      });
      acceptedByCommand('rooms/create', { name: 'Ops Room', owner_user_id: '3' });
    });

    it('reads privacy, topic and guest_access', () => {
      expect(build('rooms/create', { name: 'R', owner_user_id: '3', privacy: 'private', topic: 'T', guest_access: '1' }).payload)
        .toMatchObject({ privacy: 'private', topic: 'T', guestAccess: true });
      rejects('privacy', 'rooms/create', { name: 'R', owner_user_id: '3', privacy: 'secret' });
      rejects('guest_access', 'rooms/create', { name: 'R', owner_user_id: '3', guest_access: '5' });
      rejects('topic', 'rooms/create', { name: 'R', owner_user_id: '3', topic: '<i>x</i>' });
    });

    it('requires name and a numeric owner_user_id', () => {
      rejects('name', 'rooms/create', { owner_user_id: '3' });
      rejects('owner_user_id', 'rooms/create', { name: 'R' });
      rejects('owner_user_id', 'rooms/create', { name: 'R', owner_user_id: 'bob' });
    });
  });

  describe('rooms/delete, rooms/show, rooms/list', () => {
    it('build their commands', () => {
      expect(build('rooms/delete', { room_id: 'Ops Room' })).toEqual({ command: 'rooms.delete-room.v1', payload: { actor, room: { name: 'Ops Room' } } });
      expect(build('rooms/show', { room_id: '4' })).toEqual({ command: 'rooms.get-room.v1', payload: { room: { id: 4 } } });
      expect(build('rooms/list', {})).toEqual({ command: 'rooms.list-rooms.v1', payload: {} });
      rejects('room_id', 'rooms/delete', {});
      rejects('room_id', 'rooms/show', {});
      for (const m of ['rooms/delete', 'rooms/show', 'rooms/list']) acceptedByCommand(m, { room_id: '4' });
    });

    it('present their replies as v1 records', () => {
      const room: RoomView = {
        id: 4, name: 'Ops', topic: 'T', privacy: 'private', isArchived: false, ownerUserId: 3, created: '2020-01-01T00:00:10.000Z',
        lastActive: null, xmppJid: '1_ops@conf.localhost', guestAccessUrl: null, version: 'ABCD',
      };
      const detail: RoomDetailView = { ...room, memberUserIds: [3], participants: [] };
      expect(JSON.stringify(V1_METHODS['rooms/list'].present({ rooms: [room] }, {}, NO_PARAMS))).toBe(
        '{"rooms":[{"room_id":4,"name":"Ops","topic":"T","last_active":0,"created":1577836810,"owner_user_id":3,' +
        '"is_archived":false,"is_private":true,"xmpp_jid":"1_ops@conf.localhost","guest_access_url":null}]}');
      expect(V1_METHODS['rooms/show'].present({ room: detail }, {}, NO_PARAMS)).toMatchObject({ room: { room_id: 4, member_user_ids: [3], participants: [] } });
      expect(V1_METHODS['rooms/create'].present({ room }, {}, NO_PARAMS)).toMatchObject({ room: { room_id: 4 } });
      expect(V1_METHODS['rooms/delete'].present({}, {}, NO_PARAMS)).toEqual({ deleted: true });
    });
  });

  describe('rooms/history', () => {
    it('builds the history command, timezone defaulting to UTC', () => {
      // The API-neutral page: `recent` is the newest 75, a date its whole day in the time zone.
      expect(build('rooms/history', { room_id: '4', date: 'recent' })).toEqual({
        command: 'rooms.get-history.v2', payload: { room: { id: 4 }, recentOnly: true, offset: 0, details: false },
      });
      expect(build('rooms/history', { room_id: '4', date: '2010-11-19', timezone: 'America/Los_Angeles' }).payload).toEqual({
        room: { id: 4 }, recentOnly: false, offset: 0, details: false,
        since: '2010-11-19T08:00:00.000Z', before: '2010-11-20T08:00:00.000Z',
      });
      acceptedByCommand('rooms/history', { room_id: 'Ops', date: '2010-11-19' });
    });

    it('validates date and timezone', () => {
      rejects('date', 'rooms/history', { room_id: '4' });
      rejects('date', 'rooms/history', { room_id: '4', date: 'today' });
      rejects('timezone', 'rooms/history', { room_id: '4', date: 'recent', timezone: 'Nowhere/Land' });
    });

    it('dates the messages in the requested timezone', () => {
      const reply = { messages: [{ id: 'm', date: '2010-11-19T23:48:19.000Z', type: 'notification' as const, from: { userId: null, name: 'CI' }, message: 'hi', messageFormat: 'text' as const, color: 'yellow' }] };
      const params = RequestParams.decode({ room_id: '4', date: 'recent', timezone: 'America/Los_Angeles' }, undefined);
      expect(V1_METHODS['rooms/history'].present(reply, {} as never, params)).toEqual({
        messages: [{ date: '2010-11-19T15:48:19-0800', from: { name: 'CI', user_id: 'api' }, message: 'hi' }],
      });
    });
  });

  describe('users/*', () => {
    it('users/create builds the command with only the given fields, and who asks (for the audit log)', () => {
      expect(build('users/create', { email: 'jo@example.com', name: 'Jo Smith' })).toEqual({
        command: 'users.create-user.v1', payload: { email: 'jo@example.com', name: 'Jo Smith', actor },
      });
      const full = {
        email: 'jo@example.com', name: 'Jo', mention_name: '@jo', title: 'Dev', is_group_admin: '1',
        password: 'secret-pass', timezone: 'Europe/Berlin',
      };
      expect(build('users/create', full).payload).toEqual({
        email: 'jo@example.com', name: 'Jo', mentionName: 'jo', title: 'Dev', isGroupAdmin: true,
        password: 'secret-pass', timezone: 'Europe/Berlin', actor,
      });
      acceptedByCommand('users/create', full);
    });

    it('users/create validates its parameters, in the v1 order', () => {
      rejects('email', 'users/create', { name: 'Jo' });
      rejects('name', 'users/create', { email: 'jo@example.com' });
      rejects('email', 'users/create', { email: 'nope', name: 'Jo' });
      rejects('is_group_admin', 'users/create', { email: 'jo@example.com', name: 'Jo', is_group_admin: 'x' });
      rejects('password', 'users/create', { email: 'jo@example.com', name: 'Jo', password: 'short' });
      rejects('timezone', 'users/create', { email: 'jo@example.com', name: 'Jo', timezone: 'Bad/Zone' });
      rejects('timezone', 'users/create', { email: 'jo@example.com', name: 'Jo', timezone: 'Bad/Zone', mention_name: 'a b' });
      rejects('mention_name', 'users/create', { email: 'jo@example.com', name: 'Jo', password: 'short', mention_name: 'a b' });
    });

    it('users/create answers the record with the password last', () => {
      const user: UserView = {
        id: 5, name: 'Jo', mentionName: 'jo', email: 'jo@example.com', title: '', photoUrl: 'http://x/img/silhouette_125.png',
        created: '2020-01-01T00:00:00.000Z', lastActive: null, status: 'offline', statusMessage: '', isGroupAdmin: false,
        isDeleted: false, isGuest: false, timezone: 'UTC', xmppJid: '1_5@chat.localhost', version: 'V',
      };
      const body = V1_METHODS['users/create'].present({ user, password: 'pw-123456' }, {}, NO_PARAMS);
      expect(Object.keys((body as { user: object }).user).at(-1)).toBe('password');
      expect(body).toMatchObject({ user: { user_id: 5, password: 'pw-123456', is_group_admin: 0 } });
      expect(V1_METHODS['users/show'].present({ user }, {}, NO_PARAMS)).not.toHaveProperty('user.is_deleted');
      expect(V1_METHODS['users/list'].present({ users: [user] }, {}, NO_PARAMS)).toMatchObject({ users: [{ is_deleted: 0 }] });
    });

    it('users/update carries only the fields given', () => {
      expect(build('users/update', { user_id: 'jo@example.com', title: 'Lead', is_group_admin: 'false' })).toEqual({
        command: 'users.update-user.v1', payload: { actor: { tokenId: 7, label: 'ci' }, user: { email: 'jo@example.com' }, title: 'Lead', isGroupAdmin: false },
      });
      acceptedByCommand('users/update', { user_id: 'jo@example.com', title: 'Lead', is_group_admin: 'false' });
      rejects('user_id', 'users/update', { title: 'Lead' });
    });

    it('users/delete, undelete, show and list build their commands and answers', () => {
      expect(build('users/delete', { user_id: '5' })).toEqual({ command: 'users.delete-user.v1', payload: { actor: { tokenId: 7, label: 'ci' }, user: { id: 5 } } });
      expect(build('users/undelete', { user_id: '5' })).toEqual({ command: 'users.undelete-user.v1', payload: { user: { id: 5 } } });
      expect(build('users/show', { user_id: 'a@b.co' })).toEqual({ command: 'users.get-user.v1', payload: { user: { email: 'a@b.co' } } });
      expect(build('users/list', {})).toEqual({ command: 'users.list-users.v1', payload: { includeDeleted: false } });
      expect(build('users/list', { include_deleted: '1' }).payload).toEqual({ includeDeleted: true });
      for (const m of ['users/delete', 'users/undelete', 'users/show']) rejects('user_id', m, {});
      expect(V1_METHODS['users/delete'].present({}, {}, NO_PARAMS)).toEqual({ deleted: true });
      expect(V1_METHODS['users/undelete'].present({}, {}, NO_PARAMS)).toEqual({ undeleted: true });
    });
  });
});
