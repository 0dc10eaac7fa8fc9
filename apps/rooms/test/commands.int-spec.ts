import {
  RoomCreatedV1, RoomDeletedV1, RoomNotificationSentV1, RoomsCommandV1, RoomTopicChangedV1, UserCreatedV1,
  UserDeletedV1, UserUndeletedV1, UserUpdatedV1, UsersCommandV1,
} from '@app/contracts';
import { EventCapture, Stack, startStack } from '../../../test/support/harness';
import { ACTOR, RoomsRpc } from './support';

const BASE = 'https://chat.example.test';
const VERSION = /^[0-9A-F]{8}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;


describe('rooms service commands over RabbitMQ (real Postgres, RabbitMQ)', () => {
  let stack: Stack;
  let rpc: RoomsRpc;
  let capture: EventCapture;

  beforeAll(async () => {
    stack = await startStack({ rooms: { PUBLIC_BASE_URL: `${BASE}/` } });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
  });
  afterAll(async () => {
    await rpc?.close();
    await capture?.stop();
    await stack?.stop();
  });

  const userObject = (id: number, name: string, mention: string) => ({
    id, links: { self: `${BASE}/v2/user/${id}` }, mention_name: mention, name, version: expect.stringMatching(VERSION),
  });

  describe('users', () => {
    it('users.create.v1 answers the v1 user with its password once, and publishes user.created.v1', async () => {
      const reply = await rpc.send(UsersCommandV1.create, {
        email: 'Ada.Lovelace@example.com', name: 'Ada Lovelace', title: 'Analyst', isGroupAdmin: true, timezone: 'Europe/London',
      });
      expect(reply).toEqual({
        user: {
          user_id: expect.any(Number),
          name: 'Ada Lovelace',
          mention_name: 'AdaLovelace',
          email: 'Ada.Lovelace@example.com',
          title: 'Analyst',
          photo_url: `${BASE}/img/silhouette_125.png`,
          last_active: 0,
          created: expect.any(Number),
          status: 'offline',
          status_message: '',
          is_group_admin: 1,
          timezone: 'Europe/London',
          password: expect.any(String),
        },
      });
      expect(reply.user.password.length).toBeGreaterThanOrEqual(8);
      expect(Math.abs(reply.user.created - Date.now() / 1000)).toBeLessThan(60);

      const event = await capture.waitFor(UserCreatedV1.routingKey, (e: any) => e.payload.user.id === reply.user.user_id);
      expect(event).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: 'user.created',
        version: 1,
        occurredAt: expect.stringMatching(ISO),
        payload: { user: userObject(reply.user.user_id, 'Ada Lovelace', 'AdaLovelace') },
      });
    });

    it('users.show.v1 and users.list.v1 answer v1 user records (list carries is_deleted)', async () => {
      const u = await rpc.createUser('Show Me');
      const shown = await rpc.send(UsersCommandV1.show, { userIdOrEmail: 'SHOWME@example.com' });
      expect(shown.user).toMatchObject({ user_id: u.user_id, name: 'Show Me', email: 'showme@example.com' });
      expect(shown.user).not.toHaveProperty('password');
      expect(shown.user).not.toHaveProperty('is_deleted');
      const byId = await rpc.send(UsersCommandV1.show, { userIdOrEmail: String(u.user_id) });
      expect(byId).toEqual(shown);

      const list = await rpc.send(UsersCommandV1.list, { includeDeleted: false });
      expect(list.users.find((x: any) => x.user_id === u.user_id)).toMatchObject({ name: 'Show Me', is_deleted: 0 });
      for (const x of list.users) expect(x).not.toHaveProperty('password');
    });

    it('users.update.v1 answers the changed record and publishes user.updated.v1 with a new version', async () => {
      const u = await rpc.createUser('Grace Hopper');
      const created = await capture.waitFor(UserCreatedV1.routingKey, (e: any) => e.payload.user.id === u.user_id);
      const reply = await rpc.send(UsersCommandV1.update, {
        userIdOrEmail: String(u.user_id), name: 'Grace B Hopper', mentionName: 'amazing_grace', title: 'RADM',
      });
      expect(reply).toEqual({ user: expect.objectContaining({ user_id: u.user_id, name: 'Grace B Hopper', mention_name: 'amazing_grace', title: 'RADM' }) });
      expect(reply.user).not.toHaveProperty('password');
      const event = await capture.waitFor(UserUpdatedV1.routingKey, (e: any) => e.payload.user.id === u.user_id);
      expect(event.payload).toEqual({ user: userObject(u.user_id, 'Grace B Hopper', 'amazing_grace') });
      expect((event.payload as any).user.version).not.toBe((created.payload as any).user.version);
    });

    it('users.delete.v1 and users.undelete.v1 answer their flags and publish their events', async () => {
      const u = await rpc.createUser('Temp User');
      expect(await rpc.send(UsersCommandV1.delete, { userIdOrEmail: 'tempuser@example.com' })).toEqual({ deleted: true });
      const deleted = await capture.waitFor(UserDeletedV1.routingKey, (e: any) => e.payload.user.id === u.user_id);
      expect(deleted.payload).toEqual({ user: userObject(u.user_id, 'Temp User', 'TempUser') });

      expect(await rpc.refused(UsersCommandV1.show, { userIdOrEmail: String(u.user_id) }))
        .toEqual({ code: 'not_found', message: expect.any(String), param: 'user_id' });
      const all = await rpc.send(UsersCommandV1.list, { includeDeleted: true });
      expect(all.users.find((x: any) => x.user_id === u.user_id)).toMatchObject({ is_deleted: 1 });
      const live = await rpc.send(UsersCommandV1.list, { includeDeleted: false });
      expect(live.users.find((x: any) => x.user_id === u.user_id)).toBeUndefined();

      expect(await rpc.send(UsersCommandV1.undelete, { userIdOrEmail: String(u.user_id) })).toEqual({ undeleted: true });
      const undeleted = await capture.waitFor(UserUndeletedV1.routingKey, (e: any) => e.payload.user.id === u.user_id);
      expect(undeleted.payload).toEqual({ user: userObject(u.user_id, 'Temp User', 'TempUser') });
      expect((await rpc.send(UsersCommandV1.show, { userIdOrEmail: String(u.user_id) })).user.user_id).toBe(u.user_id);

      expect(await rpc.refused(UsersCommandV1.undelete, { userIdOrEmail: String(u.user_id) }))
        .toEqual({ code: 'invalid', message: expect.any(String), param: 'user_id' });
    });

    it('answers not_found for unknown users on every user command', async () => {
      const missing = { code: 'not_found', message: expect.stringContaining('999999'), param: 'user_id' };
      expect(await rpc.refused(UsersCommandV1.show, { userIdOrEmail: '999999' })).toEqual(missing);
      expect(await rpc.refused(UsersCommandV1.update, { userIdOrEmail: '999999', name: 'X' })).toEqual(missing);
      expect(await rpc.refused(UsersCommandV1.delete, { userIdOrEmail: '999999' })).toEqual(missing);
      expect(await rpc.refused(UsersCommandV1.undelete, { userIdOrEmail: '999999' })).toEqual(missing);
      expect(await rpc.refused(UsersCommandV1.show, { userIdOrEmail: 'nobody@example.com' }))
        .toEqual({ code: 'not_found', message: expect.any(String), param: 'user_id' });
    });

    it('answers conflict when undeleting a user whose e-mail address was taken meanwhile; deleted users stay out of reach', async () => {
      const gone = await rpc.createUser('Gone Girl', { email: 'gone@example.com', mentionName: 'gone' });
      await rpc.send(UsersCommandV1.delete, { userIdOrEmail: 'gone@example.com' });
      expect(await rpc.refused(UsersCommandV1.update, { userIdOrEmail: String(gone.user_id), name: 'Back' }))
        .toMatchObject({ code: 'not_found', param: 'user_id' });
      expect(await rpc.refused(UsersCommandV1.delete, { userIdOrEmail: String(gone.user_id) }))
        .toMatchObject({ code: 'not_found', param: 'user_id' });
      expect(await rpc.refused(RoomsCommandV1.create, {
        actor: ACTOR, name: 'Ghost Room', ownerUserId: gone.user_id, privacy: 'public', topic: '', guestAccess: false,
      })).toMatchObject({ code: 'not_found', param: 'owner_user_id' });
      const successor = await rpc.createUser('Successor', { email: 'GONE@example.com', mentionName: 'successor' });
      expect(await rpc.refused(UsersCommandV1.undelete, { userIdOrEmail: String(gone.user_id) }))
        .toEqual({ code: 'conflict', message: expect.any(String), param: 'user_id' });
      // By e-mail address, the live user wins over the deleted one.
      expect((await rpc.send(UsersCommandV1.show, { userIdOrEmail: 'gone@example.com' })).user.user_id).toBe(successor.user_id);
    });

    it('answers conflict for a duplicate e-mail address or mention name, without an event', async () => {
      const a = await rpc.createUser('Dup One', { email: 'dup@example.com', mentionName: 'dupone' });
      const b = await rpc.createUser('Dup Two', { email: 'dup2@example.com', mentionName: 'duptwo' });
      expect(await rpc.refused(UsersCommandV1.create, { email: 'DUP@example.com', name: 'Other' }))
        .toEqual({ code: 'conflict', message: expect.stringContaining('e-mail'), param: 'email' });
      expect(await rpc.refused(UsersCommandV1.create, { email: 'fresh@example.com', name: 'Other', mentionName: 'DupOne' }))
        .toEqual({ code: 'conflict', message: expect.stringContaining('mention name'), param: 'mention_name' });
      expect(await rpc.refused(UsersCommandV1.update, { userIdOrEmail: String(b.user_id), email: 'dup@example.com' }))
        .toEqual({ code: 'conflict', message: expect.any(String), param: 'email' });
      expect(await rpc.refused(UsersCommandV1.update, { userIdOrEmail: String(b.user_id), mentionName: 'dupone' }))
        .toEqual({ code: 'conflict', message: expect.any(String), param: 'mention_name' });
      // The refused update changed nothing.
      expect((await rpc.send(UsersCommandV1.show, { userIdOrEmail: String(b.user_id) })).user)
        .toMatchObject({ email: 'dup2@example.com', mention_name: 'duptwo' });
      expect(a.user_id).not.toBe(b.user_id);
      await new Promise((r) => setTimeout(r, 200));
      expect(capture.events.filter((e) => e.routingKey === UserUpdatedV1.routingKey && (e.envelope.payload as any).user.id === b.user_id))
        .toEqual([]);
      expect(capture.events.filter((e) => e.routingKey === UserCreatedV1.routingKey && (e.envelope.payload as any).user.name === 'Other'))
        .toEqual([]);
    });
  });

  describe('rooms', () => {
    let owner: { user_id: number; name: string; mention_name: string };

    beforeAll(async () => {
      owner = await rpc.createUser('Room Owner', { mentionName: 'owner' });
    });

    it('rooms.create.v1 answers the v1 room and publishes room.created.v1 (public: no members link)', async () => {
      const reply = await rpc.send(RoomsCommandV1.create, {
        actor: ACTOR, name: 'Ops Room', ownerUserId: owner.user_id, privacy: 'public', topic: 'Deploys', guestAccess: false,
      });
      expect(reply).toEqual({
        room: {
          room_id: expect.any(Number),
          name: 'Ops Room',
          topic: 'Deploys',
          last_active: 0,
          created: expect.any(Number),
          owner_user_id: owner.user_id,
          is_archived: false,
          is_private: false,
          xmpp_jid: '1_ops_room@conf.localhost',
          guest_access_url: null,
        },
      });
      const id = reply.room.room_id;
      const event = await capture.waitFor(RoomCreatedV1.routingKey, (e: any) => e.payload.room.id === id);
      expect(event).toEqual({
        id: expect.any(String), type: 'room.created', version: 1, occurredAt: expect.stringMatching(ISO),
        payload: {
          room: {
            id,
            is_archived: false,
            links: {
              self: `${BASE}/v2/room/${id}`,
              participants: `${BASE}/v2/room/${id}/participant`,
              webhooks: `${BASE}/v2/room/${id}/webhook`,
            },
            name: 'Ops Room',
            privacy: 'public',
            version: expect.stringMatching(VERSION),
          },
          sender: userObject(owner.user_id, 'Room Owner', 'owner'),
        },
      });
      expect((event.payload as any).room.links).not.toHaveProperty('members');
    });

    it('private rooms carry links.members, a guest access URL when asked, and the owner as member', async () => {
      const reply = await rpc.send(RoomsCommandV1.create, {
        actor: ACTOR, name: 'Secret Room', ownerUserId: owner.user_id, privacy: 'private', topic: '', guestAccess: true,
      });
      expect(reply.room).toMatchObject({ is_private: true, guest_access_url: expect.stringMatching(new RegExp(`^${BASE}/g/[0-9a-f]{32}$`)) });
      const id = reply.room.room_id;
      const event = await capture.waitFor(RoomCreatedV1.routingKey, (e: any) => e.payload.room.id === id);
      expect((event.payload as any).room).toMatchObject({
        privacy: 'private',
        links: {
          self: `${BASE}/v2/room/${id}`,
          participants: `${BASE}/v2/room/${id}/participant`,
          webhooks: `${BASE}/v2/room/${id}/webhook`,
          members: `${BASE}/v2/room/${id}/member`,
        },
      });
      const shown = await rpc.send(RoomsCommandV1.show, { roomIdOrName: 'secret room' });
      expect(shown).toEqual({ room: { ...reply.room, member_user_ids: [owner.user_id], participants: [] } });
    });

    it('rooms.show.v1 and rooms.list.v1 find rooms by id or case-insensitive name', async () => {
      const { room } = await rpc.send(RoomsCommandV1.create, {
        actor: ACTOR, name: 'Listed', ownerUserId: owner.user_id, privacy: 'public', topic: 't', guestAccess: false,
      });
      const byName = await rpc.send(RoomsCommandV1.show, { roomIdOrName: 'LISTED' });
      const byId = await rpc.send(RoomsCommandV1.show, { roomIdOrName: String(room.room_id) });
      expect(byName).toEqual(byId);
      expect(byId.room).toEqual({ ...room, member_user_ids: [], participants: [] });
      const list = await rpc.send(RoomsCommandV1.list, {});
      expect(Object.keys(list)).toEqual(['rooms']);
      expect(list.rooms).toContainEqual(room);
      const ids = list.rooms.map((r: any) => r.room_id);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    });

    it('rooms.set-topic.v1 answers ok and publishes room.topic-changed.v1 with sender and topic', async () => {
      const { room } = await rpc.send(RoomsCommandV1.create, {
        actor: ACTOR, name: 'Topical', ownerUserId: owner.user_id, privacy: 'public', topic: 'old', guestAccess: false,
      });
      const created = await capture.waitFor(RoomCreatedV1.routingKey, (e: any) => e.payload.room.id === room.room_id);
      expect(await rpc.send(RoomsCommandV1.setTopic, { actor: ACTOR, roomIdOrName: 'topical', topic: 'new topic', from: 'CI Bot' }))
        .toEqual({ status: 'ok' });
      const event = await capture.waitFor(RoomTopicChangedV1.routingKey, (e: any) => e.payload.room.id === room.room_id);
      expect(event.payload).toEqual({
        room: expect.objectContaining({ id: room.room_id, name: 'Topical', privacy: 'public', is_archived: false, version: expect.stringMatching(VERSION) }),
        sender: 'CI Bot',
        topic: 'new topic',
      });
      expect((event.payload as any).room.version).not.toBe((created.payload as any).room.version);
      expect((await rpc.send(RoomsCommandV1.show, { roomIdOrName: String(room.room_id) })).room.topic).toBe('new topic');
    });

    it('rooms.send-notification.v1 answers sent + message id and publishes room.notification-sent.v1', async () => {
      const { room } = await rpc.send(RoomsCommandV1.create, {
        actor: ACTOR, name: 'Alerts', ownerUserId: owner.user_id, privacy: 'private', topic: '', guestAccess: false,
      });
      const mentioned = await rpc.createUser('Mentioned Person', { mentionName: 'mp' });
      const reply = await rpc.send(RoomsCommandV1.sendNotification, {
        actor: ACTOR, roomIdOrName: String(room.room_id), from: 'Nagios', message: 'disk full, @mp and @owner please look (@nobody)',
        messageFormat: 'text', notify: true, color: 'red',
      });
      expect(reply).toEqual({ status: 'sent', messageId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      const event = await capture.waitFor(RoomNotificationSentV1.routingKey, (e: any) => e.payload.message.id === reply.messageId);
      expect(event.payload).toEqual({
        room: expect.objectContaining({ id: room.room_id, privacy: 'private', links: expect.objectContaining({ members: `${BASE}/v2/room/${room.room_id}/member` }) }),
        message: {
          color: 'red',
          date: expect.stringMatching(ISO),
          from: 'Nagios',
          id: reply.messageId,
          mentions: [userObject(owner.user_id, 'Room Owner', 'owner'), userObject(mentioned.user_id, 'Mentioned Person', 'mp')],
          message: 'disk full, @mp and @owner please look (@nobody)',
          message_format: 'text',
          type: 'notification',
        },
        notify: true,
      });
      expect(Math.abs(Date.parse((event.payload as any).message.date) - Date.now())).toBeLessThan(60_000);

      const html = await rpc.send(RoomsCommandV1.sendNotification, {
        actor: ACTOR, roomIdOrName: 'alerts', from: 'Jenkins', message: '<b>build</b> ok @mp', messageFormat: 'html', notify: false, color: 'green',
      });
      const htmlEvent = await capture.waitFor(RoomNotificationSentV1.routingKey, (e: any) => e.payload.message.id === html.messageId);
      expect((htmlEvent.payload as any).message).toMatchObject({ mentions: [], message_format: 'html', color: 'green', from: 'Jenkins' });
      expect((htmlEvent.payload as any).notify).toBe(false);

      const shown = await rpc.send(RoomsCommandV1.show, { roomIdOrName: 'Alerts' });
      expect(Math.abs(shown.room.last_active - Date.now() / 1000)).toBeLessThan(60);
    });

    it('rooms.history.v1 answers the messages of the room, oldest first', async () => {
      const { room } = await rpc.send(RoomsCommandV1.create, {
        actor: ACTOR, name: 'Historic', ownerUserId: owner.user_id, privacy: 'public', topic: '', guestAccess: false,
      });
      for (const text of ['first', 'second']) {
        await rpc.send(RoomsCommandV1.sendNotification, {
          actor: ACTOR, roomIdOrName: 'Historic', from: 'Bot', message: text, messageFormat: 'text', notify: false, color: 'yellow',
        });
      }
      const recent = await rpc.send(RoomsCommandV1.history, { roomIdOrName: String(room.room_id), date: 'recent', timezone: 'UTC' });
      expect(recent).toEqual({
        messages: [
          { date: expect.any(String), from: { name: 'Bot', user_id: 'api' }, message: 'first' },
          { date: expect.any(String), from: { name: 'Bot', user_id: 'api' }, message: 'second' },
        ],
      });
      const today = new Date().toISOString().slice(0, 10);
      const day = await rpc.send(RoomsCommandV1.history, { roomIdOrName: 'historic', date: today, timezone: 'UTC' });
      expect(day.messages.map((m: any) => m.message)).toEqual(['first', 'second']);
      expect(await rpc.send(RoomsCommandV1.history, { roomIdOrName: 'historic', date: '2001-01-01', timezone: 'UTC' })).toEqual({ messages: [] });
    });

    it('rooms.delete.v1 answers deleted and publishes room.deleted.v1 with the last room state', async () => {
      const { room } = await rpc.send(RoomsCommandV1.create, {
        actor: ACTOR, name: 'Doomed', ownerUserId: owner.user_id, privacy: 'private', topic: '', guestAccess: false,
      });
      expect(await rpc.send(RoomsCommandV1.delete, { actor: { label: 'Admin Script' }, roomIdOrName: 'doomed' })).toEqual({ deleted: true });
      const event = await capture.waitFor(RoomDeletedV1.routingKey, (e: any) => e.payload.room.id === room.room_id);
      expect(event.payload).toEqual({
        room: {
          id: room.room_id, is_archived: false, name: 'Doomed', privacy: 'private', version: expect.stringMatching(VERSION),
          links: {
            self: `${BASE}/v2/room/${room.room_id}`,
            participants: `${BASE}/v2/room/${room.room_id}/participant`,
            webhooks: `${BASE}/v2/room/${room.room_id}/webhook`,
            members: `${BASE}/v2/room/${room.room_id}/member`,
          },
        },
        sender: 'Admin Script',
      });
      expect(await rpc.refused(RoomsCommandV1.show, { roomIdOrName: String(room.room_id) }))
        .toEqual({ code: 'not_found', message: expect.any(String), param: 'room_id' });
    });

    it('answers not_found for an unknown room on every room command', async () => {
      const missing = { code: 'not_found', message: expect.stringContaining('No Such Room'), param: 'room_id' };
      const ref = { roomIdOrName: 'No Such Room' };
      expect(await rpc.refused(RoomsCommandV1.show, ref)).toEqual(missing);
      expect(await rpc.refused(RoomsCommandV1.delete, { ...ref, actor: ACTOR })).toEqual(missing);
      expect(await rpc.refused(RoomsCommandV1.history, { ...ref, date: 'recent', timezone: 'UTC' })).toEqual(missing);
      expect(await rpc.refused(RoomsCommandV1.setTopic, { ...ref, actor: ACTOR, topic: 'x', from: 'API' })).toEqual(missing);
      expect(await rpc.refused(RoomsCommandV1.sendNotification, {
        ...ref, actor: ACTOR, from: 'x', message: 'x', messageFormat: 'text', notify: false, color: 'yellow',
      })).toEqual(missing);
      expect(await rpc.refused(RoomsCommandV1.show, { roomIdOrName: '987654' }))
        .toEqual({ code: 'not_found', message: expect.any(String), param: 'room_id' });
      expect(await rpc.refused(RoomsCommandV1.create, {
        actor: ACTOR, name: 'Orphan', ownerUserId: 987654, privacy: 'public', topic: '', guestAccess: false,
      })).toEqual({ code: 'not_found', message: expect.any(String), param: 'owner_user_id' });
    });

    it('answers conflict for a duplicate room name (case-insensitive), without an event', async () => {
      await rpc.send(RoomsCommandV1.create, {
        actor: ACTOR, name: 'Unique Name', ownerUserId: owner.user_id, privacy: 'public', topic: '', guestAccess: false,
      });
      expect(await rpc.refused(RoomsCommandV1.create, {
        actor: ACTOR, name: 'unique NAME', ownerUserId: owner.user_id, privacy: 'private', topic: '', guestAccess: false,
      })).toEqual({ code: 'conflict', message: expect.stringContaining('unique NAME'), param: 'name' });
      await new Promise((r) => setTimeout(r, 200));
      expect(capture.events.filter((e) => e.routingKey === RoomCreatedV1.routingKey && (e.envelope.payload as any).room.name === 'unique NAME'))
        .toEqual([]);
    });

    it('answers invalid for a history date that is not a calendar date', async () => {
      expect(await rpc.refused(RoomsCommandV1.history, { roomIdOrName: 'Ops Room', date: '2020-13-45', timezone: 'UTC' }))
        .toEqual({ code: 'invalid', message: expect.any(String), param: 'date' });
    });
  });
});
