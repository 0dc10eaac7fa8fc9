import { NOTIFICATION_COLORS, RoomsCommandV1, UsersCommandV1 } from '@app/contracts';
import { V1Error } from './errors';
import { V1_METHODS } from './methods';
import { V1Params } from './params';

const actor = { tokenId: 7, label: 'ci' };

function build(method: string, query: Record<string, string>, body?: Record<string, string>) {
  const spec = V1_METHODS[method];
  if (!spec) throw new Error(`no method ${method}`);
  return spec.command(new V1Params(query, body), actor) as { pattern: string; payload: any };
}

/** Expects a 400 whose message begins with the parameter's name; returns the message. */
function rejects(param: string, method: string, query: Record<string, string>): string {
  let caught: unknown;
  try {
    build(method, query);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(V1Error);
  expect((caught as V1Error).status).toBe(400);
  expect((caught as V1Error).message.startsWith(`${param}:`)).toBe(true);
  return (caught as V1Error).message;
}

const MSG = { room_id: '12', from: 'Bot', message: 'hello' };

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

  describe('rooms/message', () => {
    it('builds the send-notification command with the defaults', () => {
      expect(build('rooms/message', MSG)).toEqual({
        pattern: RoomsCommandV1.sendNotification,
        payload: { actor, roomIdOrName: '12', from: 'Bot', message: 'hello', messageFormat: 'html', notify: false, color: 'yellow' },
      });
    });

    it('takes a room name with spaces as room_id', () => {
      expect(build('rooms/message', { ...MSG, room_id: 'Ops Room' }).payload.roomIdOrName).toBe('Ops Room');
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

    it('passes a chosen colour and resolves random to one of the five', () => {
      expect(build('rooms/message', { ...MSG, color: 'purple' }).payload.color).toBe('purple');
      for (let i = 0; i < 30; i++) {
        expect(NOTIFICATION_COLORS).toContain(build('rooms/message', { ...MSG, color: 'random' }).payload.color);
      }
      rejects('color', 'rooms/message', { ...MSG, color: 'blue' });
    });

    it('sanitizes html messages and leaves text messages as they are', () => {
      const html = '<b onclick="x()">hi</b><script>evil()</script>';
      expect(build('rooms/message', { ...MSG, message: html }).payload.message).toBe('<b>hi</b>');
      const text = build('rooms/message', { ...MSG, message: html, message_format: 'text' }).payload;
      expect(text).toMatchObject({ message: html, messageFormat: 'text' });
    });

    it('refuses an html message that is empty once sanitized', () => {
      rejects('message', 'rooms/message', { ...MSG, message: '<script>x()</script>' });
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

    it('answers only the status', () => {
      expect(V1_METHODS['rooms/message'].body!({ status: 'sent', messageId: 'abc' })).toEqual({ status: 'sent' });
    });
  });

  describe('rooms/topic', () => {
    it('builds the set-topic command, from defaulting to API', () => {
      expect(build('rooms/topic', { room_id: 'Ops Room', topic: 'Deploy at 5' })).toEqual({
        pattern: RoomsCommandV1.setTopic,
        payload: { actor, roomIdOrName: 'Ops Room', topic: 'Deploy at 5', from: 'API' },
      });
      expect(build('rooms/topic', { room_id: '1', topic: 't', from: 'Jenkins' }).payload.from).toBe('Jenkins');
      expect(build('rooms/topic', { room_id: '1', topic: 't', from: '' }).payload.from).toBe('API');
    });

    it('allows at most 250 characters and no HTML', () => {
      expect(build('rooms/topic', { room_id: '1', topic: 't'.repeat(250) }).payload.topic).toHaveLength(250);
      expect(rejects('topic', 'rooms/topic', { room_id: '1', topic: 't'.repeat(251) })).toContain('250');
      expect(rejects('topic', 'rooms/topic', { room_id: '1', topic: '<b>bold</b>' })).toContain('HTML');
    });

    it('requires room_id and topic', () => {
      rejects('room_id', 'rooms/topic', { topic: 't' });
      rejects('topic', 'rooms/topic', { room_id: '1' });
    });
  });

  describe('rooms/create', () => {
    it('builds the create command with the defaults', () => {
      expect(build('rooms/create', { name: 'Ops Room', owner_user_id: '3' })).toEqual({
        pattern: RoomsCommandV1.create,
        payload: { actor, name: 'Ops Room', ownerUserId: 3, privacy: 'public', topic: '', guestAccess: false },
      });
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
      expect(build('rooms/delete', { room_id: 'Ops Room' })).toEqual({ pattern: RoomsCommandV1.delete, payload: { actor, roomIdOrName: 'Ops Room' } });
      expect(build('rooms/show', { room_id: '4' })).toEqual({ pattern: RoomsCommandV1.show, payload: { roomIdOrName: '4' } });
      expect(build('rooms/list', {})).toEqual({ pattern: RoomsCommandV1.list, payload: {} });
      rejects('room_id', 'rooms/delete', {});
      rejects('room_id', 'rooms/show', {});
    });
  });

  describe('rooms/history', () => {
    it('builds the history command, timezone defaulting to UTC', () => {
      expect(build('rooms/history', { room_id: '4', date: 'recent' })).toEqual({
        pattern: RoomsCommandV1.history, payload: { roomIdOrName: '4', date: 'recent', timezone: 'UTC' },
      });
      expect(build('rooms/history', { room_id: '4', date: '2010-11-19', timezone: 'America/Los_Angeles' }).payload)
        .toEqual({ roomIdOrName: '4', date: '2010-11-19', timezone: 'America/Los_Angeles' });
    });

    it('validates date and timezone', () => {
      rejects('date', 'rooms/history', { room_id: '4' });
      rejects('date', 'rooms/history', { room_id: '4', date: 'today' });
      rejects('timezone', 'rooms/history', { room_id: '4', date: 'recent', timezone: 'Nowhere/Land' });
    });
  });

  describe('users/*', () => {
    it('users/create builds the command with only the given fields', () => {
      expect(build('users/create', { email: 'jo@example.com', name: 'Jo Smith' })).toEqual({
        pattern: UsersCommandV1.create,
        payload: {
          email: 'jo@example.com', name: 'Jo Smith', mentionName: undefined, title: undefined,
          isGroupAdmin: undefined, password: undefined, timezone: undefined,
        },
      });
      expect(build('users/create', {
        email: 'jo@example.com', name: 'Jo', mention_name: 'jo', title: 'Dev', is_group_admin: '1',
        password: 'secret-pass', timezone: 'Europe/Berlin',
      }).payload).toEqual({
        email: 'jo@example.com', name: 'Jo', mentionName: 'jo', title: 'Dev', isGroupAdmin: true,
        password: 'secret-pass', timezone: 'Europe/Berlin',
      });
    });

    it('users/create validates its parameters', () => {
      rejects('email', 'users/create', { name: 'Jo' });
      rejects('name', 'users/create', { email: 'jo@example.com' });
      rejects('email', 'users/create', { email: 'nope', name: 'Jo' });
      rejects('is_group_admin', 'users/create', { email: 'jo@example.com', name: 'Jo', is_group_admin: 'x' });
      rejects('password', 'users/create', { email: 'jo@example.com', name: 'Jo', password: 'short' });
      rejects('timezone', 'users/create', { email: 'jo@example.com', name: 'Jo', timezone: 'Bad/Zone' });
    });

    it('users/update carries only the fields given', () => {
      expect(build('users/update', { user_id: 'jo@example.com', title: 'Lead', is_group_admin: 'false' })).toEqual({
        pattern: UsersCommandV1.update, payload: { userIdOrEmail: 'jo@example.com', title: 'Lead', isGroupAdmin: false },
      });
      rejects('user_id', 'users/update', { title: 'Lead' });
    });

    it('users/delete, undelete, show and list build their commands', () => {
      expect(build('users/delete', { user_id: '5' })).toEqual({ pattern: UsersCommandV1.delete, payload: { userIdOrEmail: '5' } });
      expect(build('users/undelete', { user_id: '5' })).toEqual({ pattern: UsersCommandV1.undelete, payload: { userIdOrEmail: '5' } });
      expect(build('users/show', { user_id: 'a@b.co' })).toEqual({ pattern: UsersCommandV1.show, payload: { userIdOrEmail: 'a@b.co' } });
      expect(build('users/list', {})).toEqual({ pattern: UsersCommandV1.list, payload: { includeDeleted: false } });
      expect(build('users/list', { include_deleted: '1' }).payload).toEqual({ includeDeleted: true });
      for (const m of ['users/delete', 'users/undelete', 'users/show']) rejects('user_id', m, {});
    });
  });
});
