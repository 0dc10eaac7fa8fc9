import {
  AddMemberV1, CreateRoomV1, CreateUserV1, EnterRoomV1, DeleteRoomV1, DeleteUserV1, GetHistoryV2, GetRoomStatisticsV1, GetRoomV1, GetUserV1, ListRoomsV1, ListUsersV1,
  NOTIFICATION_COLORS, RoomCreatedV2, RoomDeletedV2, RoomNotificationSentV2, RoomTopicChangedV2, SendNotificationV1, SetTopicV1,
  UndeleteUserV1, UpdateUserV1, UserCreatedV1, UserDeletedV1, UserUndeletedV1, UserUpdatedV1,
  readHistoryDate,
} from '@app/contracts';
import { ACTOR, EventCapture, RawCommands, RoomsRpc, RoomsStack, sleep, sql, startStack } from './support';

const BASE = 'https://chat.example.test';
const RECENT = { recentOnly: true, offset: 0, details: false };
const VERSION = expect.stringMatching(/^[0-9A-F]{8}$/);
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);


describe('rooms service commands over RabbitMQ (real Postgres, RabbitMQ)', () => {
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  let capture: EventCapture;

  beforeAll(async () => {
    stack = await startStack({ PUBLIC_BASE_URL: `${BASE}/` });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
  });
  afterAll(async () => {
    await rpc?.close();
    await capture?.stop();
    await stack?.stop();
  });

  /** The webhook User object events carry. */
  const userObject = (id: number, name: string, mention: string) => ({
    id, links: { self: `${BASE}/v2/user/${id}` }, mention_name: mention, name, version: VERSION,
  });
  const userMissing = (ref: string, field = 'user') => ({ code: 'not_found', reason: 'user_not_found', field, detail: { ref } });

  describe('users', () => {
    it('users.create-user.v1 answers the user view with its password once, and publishes user.created.v1', async () => {
      const reply = await rpc.send(CreateUserV1, {
        email: 'Ada.Lovelace@example.com', name: 'Ada Lovelace', title: 'Analyst', isGroupAdmin: true, timezone: 'Europe/London',
      });
      expect(reply).toEqual({
        user: {
          id: expect.any(Number),
          name: 'Ada Lovelace',
          mentionName: 'AdaLovelace',
          email: 'Ada.Lovelace@example.com',
          title: 'Analyst',
          photoUrl: `${BASE}/img/silhouette_125.png`,
          created: ISO,
          lastActive: null,
          status: 'offline',
          statusMessage: '',
          isGroupAdmin: true,
          isDeleted: false,
          isGuest: false,
          timezone: 'Europe/London',
          xmppJid: expect.stringMatching(/^1_\d+@chat\./),
          version: VERSION,
        },
        password: expect.any(String),
      });
      expect(reply.password.length).toBeGreaterThanOrEqual(8);
      expect(Math.abs(Date.parse(reply.user.created) - Date.now())).toBeLessThan(60_000);

      const event = await capture.waitFor(UserCreatedV1.routingKey, (e) => e.payload.user.id === reply.user.id);
      expect(event).toEqual({
        id: UUID,
        type: 'user.created',
        version: 1,
        occurredAt: ISO, registrationsVersion: expect.any(Number),
        payload: { user: userObject(reply.user.id, 'Ada Lovelace', 'AdaLovelace') },
      });

      // The password is kept only as a hash, and the reply kept for redeliveries has none.
      const [row] = await sql(stack.databaseUrl, 'SELECT password_hash FROM users WHERE id = $1', [reply.user.id]);
      expect(row.password_hash).toMatch(/^scrypt\$/);
      expect(row.password_hash).not.toContain(reply.password);
      const kept = await sql(stack.databaseUrl, "SELECT reply FROM applied_commands WHERE (reply->'user'->>'id')::int = $1", [reply.user.id]);
      expect(kept).toEqual([{ reply: { user: expect.objectContaining({ id: reply.user.id }), password: '' } }]);
    });

    it('users.get-user.v1 and users.list-users.v1 answer user views (by id or case-insensitive e-mail), never a password', async () => {
      const u = await rpc.createUser('Show Me');
      const shown = await rpc.send(GetUserV1, { user: { email: 'SHOWME@example.com' } });
      expect(shown.user).toMatchObject({ id: u.id, name: 'Show Me', email: 'showme@example.com', isDeleted: false });
      expect(shown).toEqual({ user: u });
      expect(shown.user).not.toHaveProperty('password');
      expect(shown).not.toHaveProperty('password');
      const byId = await rpc.send(GetUserV1, { user: { id: u.id } });
      expect(byId).toEqual(shown);

      const list = await rpc.send(ListUsersV1, { includeDeleted: false });
      expect(Object.keys(list)).toEqual(['users']);
      expect(list.users.find((x) => x.id === u.id)).toEqual({ ...u, isDeleted: false });
      for (const x of list.users) expect(x).not.toHaveProperty('password');
      const ids = list.users.map((x) => x.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it('users.update-user.v1 answers the changed user and publishes user.updated.v1 with a new version', async () => {
      const u = await rpc.createUser('Grace Hopper');
      const created = await capture.waitFor(UserCreatedV1.routingKey, (e) => e.payload.user.id === u.id);
      const reply = await rpc.send(UpdateUserV1, { user: { id: u.id }, name: 'Grace B Hopper', mentionName: '@amazing_grace', title: 'RADM' });
      expect(reply).toEqual({ user: { ...u, name: 'Grace B Hopper', mentionName: 'amazing_grace', title: 'RADM', version: VERSION } });
      expect(reply.user.version).not.toBe(u.version);
      expect(reply.user).not.toHaveProperty('password');
      const event = await capture.waitFor(UserUpdatedV1.routingKey, (e) => e.payload.user.id === u.id);
      expect(event.payload).toEqual({ user: userObject(u.id, 'Grace B Hopper', 'amazing_grace') });
      expect(event.payload.user.version).toBe(reply.user.version);
      expect(event.payload.user.version).not.toBe(created.payload.user.version);
      expect((await rpc.send(GetUserV1, { user: { id: u.id } })).user).toEqual(reply.user);
    });

    it('users.delete-user.v1 and users.undelete-user.v1 answer {} and publish their events', async () => {
      const u = await rpc.createUser('Temp User');
      expect(await rpc.send(DeleteUserV1, { user: { email: 'tempuser@example.com' } })).toEqual({});
      const deleted = await capture.waitFor(UserDeletedV1.routingKey, (e) => e.payload.user.id === u.id);
      expect(deleted.payload).toEqual({ user: userObject(u.id, 'Temp User', 'TempUser') });

      expect(await rpc.refused(GetUserV1, { user: { id: u.id } })).toEqual(userMissing(String(u.id)));
      const all = await rpc.send(ListUsersV1, { includeDeleted: true });
      expect(all.users.find((x) => x.id === u.id)).toMatchObject({ isDeleted: true });
      const live = await rpc.send(ListUsersV1, { includeDeleted: false });
      expect(live.users.find((x) => x.id === u.id)).toBeUndefined();

      expect(await rpc.send(UndeleteUserV1, { user: { id: u.id } })).toEqual({});
      const undeleted = await capture.waitFor(UserUndeletedV1.routingKey, (e) => e.payload.user.id === u.id);
      expect(undeleted.payload).toEqual({ user: userObject(u.id, 'Temp User', 'TempUser') });
      expect(undeleted.payload.user.version).not.toBe(deleted.payload.user.version);
      expect((await rpc.send(GetUserV1, { user: { id: u.id } })).user).toMatchObject({ id: u.id, isDeleted: false });

      expect(await rpc.refused(UndeleteUserV1, { user: { id: u.id } }))
        .toEqual({ code: 'invalid', reason: 'user_not_deleted', field: 'user', detail: { id: u.id } });
    });

    it('answers not_found for unknown users on every user command', async () => {
      const missing = userMissing('999999');
      expect(await rpc.refused(GetUserV1, { user: { id: 999999 } })).toEqual(missing);
      expect(await rpc.refused(UpdateUserV1, { user: { id: 999999 }, name: 'X' })).toEqual(missing);
      expect(await rpc.refused(DeleteUserV1, { user: { id: 999999 } })).toEqual(missing);
      expect(await rpc.refused(UndeleteUserV1, { user: { id: 999999 } })).toEqual(missing);
      expect(await rpc.refused(GetUserV1, { user: { email: 'nobody@example.com' } })).toEqual(userMissing('nobody@example.com'));
    });

    it('answers conflict when undeleting a user whose e-mail address was taken meanwhile; deleted users stay out of reach', async () => {
      const gone = await rpc.createUser('Gone Girl', { email: 'gone@example.com', mentionName: 'gone' });
      await rpc.send(DeleteUserV1, { user: { email: 'gone@example.com' } });
      expect(await rpc.refused(UpdateUserV1, { user: { id: gone.id }, name: 'Back' })).toEqual(userMissing(String(gone.id)));
      expect(await rpc.refused(DeleteUserV1, { user: { id: gone.id } })).toEqual(userMissing(String(gone.id)));
      expect(await rpc.refused(CreateRoomV1, {
        actor: ACTOR, name: 'Ghost Room', owner: { id: gone.id }, privacy: 'public', topic: '', guestAccess: false,
      })).toEqual(userMissing(String(gone.id), 'owner'));
      const successor = await rpc.createUser('Successor', { email: 'GONE@example.com', mentionName: 'successor' });
      expect(await rpc.refused(UndeleteUserV1, { user: { id: gone.id } }))
        .toEqual({ code: 'conflict', reason: 'user_identity_taken', field: 'user', detail: { id: gone.id } });
      // By e-mail address, the live user wins over the deleted one.
      expect((await rpc.send(GetUserV1, { user: { email: 'gone@example.com' } })).user.id).toBe(successor.id);
    });

    it('answers conflict for a duplicate e-mail address or mention name, without an event', async () => {
      const a = await rpc.createUser('Dup One', { email: 'dup@example.com', mentionName: 'dupone' });
      const b = await rpc.createUser('Dup Two', { email: 'dup2@example.com', mentionName: 'duptwo' });
      expect(await rpc.refused(CreateUserV1, { email: 'DUP@example.com', name: 'Other' }))
        .toEqual({ code: 'conflict', reason: 'email_taken', field: 'email', detail: { email: 'DUP@example.com' } });
      expect(await rpc.refused(CreateUserV1, { email: 'fresh@example.com', name: 'Other', mentionName: 'DupOne' }))
        .toEqual({ code: 'conflict', reason: 'mention_name_taken', field: 'mentionName', detail: { mentionName: 'DupOne' } });
      expect(await rpc.refused(UpdateUserV1, { user: { id: b.id }, email: 'dup@example.com' }))
        .toEqual({ code: 'conflict', reason: 'email_taken', field: 'email', detail: { email: 'dup@example.com' } });
      expect(await rpc.refused(UpdateUserV1, { user: { id: b.id }, mentionName: 'dupone' }))
        .toEqual({ code: 'conflict', reason: 'mention_name_taken', field: 'mentionName', detail: { mentionName: 'dupone' } });
      // The refused update changed nothing.
      expect((await rpc.send(GetUserV1, { user: { id: b.id } })).user).toEqual(b);
      expect(a.id).not.toBe(b.id);
      await sleep(200);
      expect(capture.of(UserUpdatedV1.routingKey, (e) => e.payload.user.id === b.id)).toEqual([]);
      expect(capture.of(UserCreatedV1.routingKey, (e) => e.payload.user.name === 'Other')).toEqual([]);
    });

    it('gives a user without a mention name a free default one instead of refusing', async () => {
      const first = await rpc.createUser('John Smith', { email: 'john1@example.com' });
      const second = await rpc.createUser('John Smith', { email: 'john2@example.com' });
      expect([first.mentionName, second.mentionName]).toEqual(['JohnSmith', 'JohnSmith2']);
    });
  });

  describe('rooms', () => {
    let owner: { id: number; name: string; mentionName: string };
    const createRoom = (name: string, extra: Partial<{ privacy: 'public' | 'private'; topic: string; guestAccess: boolean }> = {}) =>
      rpc.send(CreateRoomV1, {
        actor: ACTOR, name, owner: { id: owner.id }, privacy: 'public', topic: '', guestAccess: false, ...extra,
      }).then((r) => r.room);
    const notify = (room: { id: number } | { name: string }, message: string, extra: Record<string, unknown> = {}) =>
      rpc.send(SendNotificationV1, {
        actor: ACTOR, room, from: 'Bot', message, messageFormat: 'text', notify: false, color: 'yellow', ...extra,
      } as never);

    beforeAll(async () => {
      owner = await rpc.createUser('Room Owner', { mentionName: 'owner' });
    });

    it('rooms.create-room.v1 answers the room view and publishes room.created.v2 (public: no members link)', async () => {
      const reply = await rpc.send(CreateRoomV1, {
        actor: ACTOR, name: 'Ops Room', owner: { email: 'ROOMOWNER@example.com' }, privacy: 'public', topic: 'Deploys', guestAccess: false,
      });
      expect(reply).toEqual({
        room: {
          id: expect.any(Number),
          name: 'Ops Room',
          topic: 'Deploys',
          privacy: 'public',
          isArchived: false,
          ownerUserId: owner.id,
          created: ISO,
          lastActive: null,
          xmppJid: '1_ops_room@conf.localhost',
          guestAccessUrl: null,
          version: VERSION,
        },
      });
      expect(Math.abs(Date.parse(reply.room.created) - Date.now())).toBeLessThan(60_000);
      const id = reply.room.id;
      const event = await capture.waitFor(RoomCreatedV2.routingKey, (e) => e.payload.room.id === id);
      expect(event).toEqual({
        id: UUID, type: 'room.created', version: 2, occurredAt: ISO, registrationsVersion: expect.any(Number), sequence: 1,
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
            version: reply.room.version,
          },
          sender: userObject(owner.id, 'Room Owner', 'owner'),
        },
      });
      expect(event.payload.room.links).not.toHaveProperty('members');
    });

    it('private rooms carry links.members, a guest access URL when asked, and the owner as member', async () => {
      const room = await createRoom('Secret Room', { privacy: 'private', guestAccess: true });
      expect(room).toMatchObject({ privacy: 'private', guestAccessUrl: expect.stringMatching(new RegExp(`^${BASE}/g/[0-9a-f]{32}$`)) });
      const event = await capture.waitFor(RoomCreatedV2.routingKey, (e) => e.payload.room.id === room.id);
      expect(event.payload.room).toMatchObject({
        privacy: 'private',
        links: {
          self: `${BASE}/v2/room/${room.id}`,
          participants: `${BASE}/v2/room/${room.id}/participant`,
          webhooks: `${BASE}/v2/room/${room.id}/webhook`,
          members: `${BASE}/v2/room/${room.id}/member`,
        },
      });
      const shown = await rpc.send(GetRoomV1, { room: { name: 'secret room' } });
      expect(shown).toEqual({ room: { ...room, memberUserIds: [owner.id], participants: [] } });
    });

    it('rooms.get-room.v1 and rooms.list-rooms.v1 find rooms by id or case-insensitive name', async () => {
      const room = await createRoom('Listed', { topic: 't' });
      const byName = await rpc.send(GetRoomV1, { room: { name: 'LISTED' } });
      const byId = await rpc.send(GetRoomV1, { room: { id: room.id } });
      expect(byName).toEqual(byId);
      expect(byId.room).toEqual({ ...room, memberUserIds: [], participants: [] });
      const list = await rpc.send(ListRoomsV1, {});
      expect(Object.keys(list)).toEqual(['rooms']);
      expect(list.rooms).toContainEqual(room);
      const ids = list.rooms.map((r) => r.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it('rooms.get-room.v1 shows a private room\'s members, who is in it (in the order they entered) and its owner, to its members and group admins only', async () => {
      const room = await createRoom('Detailed Private', { privacy: 'private' });
      const [first, second, outsider] = [await rpc.createUser('Detail First'), await rpc.createUser('Detail Second'), await rpc.createUser('Detail Outsider')];
      const admin = await rpc.createUser('Detail Admin', { isGroupAdmin: true });
      const user = async (id: number) => (await rpc.send(GetUserV1, { user: { id } })).user;
      for (const u of [second, first]) await rpc.send(AddMemberV1, { actor: ACTOR, room: { id: room.id }, user: { id: u.id } });
      // Entered second first: participants keep that order, members are by id.
      for (const u of [second, first]) await rpc.send(EnterRoomV1, { actor: ACTOR, room: { id: room.id }, user: { id: u.id }, asAdmin: true });
      const asUser = (u: { id: number; name: string; mentionName: string; version: string }) => ({ userId: u.id, name: u.name, mentionName: u.mentionName, version: u.version });
      const shown = await rpc.send(GetRoomV1, { room: { name: 'detailed private' }, actor: { ...ACTOR, userId: first.id }, withOwner: true });
      const members = [owner.id, first.id, second.id].sort((a, b) => a - b);
      expect(shown.room).toMatchObject({
        id: room.id, memberUserIds: members,
        participants: [asUser(await user(second.id)), asUser(await user(first.id))],
        owner: asUser(await user(owner.id)),
      });
      expect((await rpc.send(GetRoomV1, { room: { id: room.id }, actor: { ...ACTOR, userId: admin.id } })).room.memberUserIds).toEqual(members);
      expect((await rpc.send(GetRoomV1, { room: { id: room.id } })).room).not.toHaveProperty('owner');
      expect(await rpc.refused(GetRoomV1, { room: { id: room.id }, actor: { ...ACTOR, userId: outsider.id } })).toEqual({
        code: 'not_found', reason: 'room_not_found', field: 'room', detail: { ref: String(room.id) },
      });
    });

    it('rooms.get-room-statistics.v1 counts a room\'s messages, read as GET of the room is: a room token in its own room only', async () => {
      const room = await createRoom('Counted Room');
      const other = await createRoom('Other Counted Room');
      for (const message of ['one', 'two']) await notify({ id: room.id }, message);
      const [{ newest }] = await sql(stack.databaseUrl, 'SELECT max(created_at) AS newest FROM messages WHERE room_id = $1', [room.id]);
      const inRoom = { ...ACTOR, roomId: room.id };
      expect(await rpc.send(GetRoomStatisticsV1, { room: { name: 'counted ROOM' }, actor: inRoom }))
        .toEqual({ statistics: { roomId: room.id, messagesSent: 2, lastActive: newest.toISOString() } });
      expect((await rpc.send(GetRoomV1, { room: { id: room.id }, actor: inRoom })).room.lastActive).toBe(newest.toISOString());
      expect(await rpc.refused(GetRoomStatisticsV1, { room: { id: other.id }, actor: inRoom }))
        .toMatchObject({ code: 'forbidden', reason: 'outside_token_room' });
      expect(await rpc.refused(GetRoomStatisticsV1, { room: { id: 999999 }, actor: ACTOR })).toMatchObject({ code: 'not_found', reason: 'room_not_found' });
    });

    it('rooms.set-topic.v1 answers {} and publishes room.topic-changed.v2 with sender, topic and a new version', async () => {
      const room = await createRoom('Topical', { topic: 'old' });
      const created = await capture.waitFor(RoomCreatedV2.routingKey, (e) => e.payload.room.id === room.id);
      expect(await rpc.send(SetTopicV1, { actor: ACTOR, room: { name: 'topical' }, topic: 'new topic', from: 'CI Bot' })).toEqual({});
      const event = await capture.waitFor(RoomTopicChangedV2.routingKey, (e) => e.payload.room.id === room.id);
      expect(event.payload).toEqual({
        room: expect.objectContaining({ id: room.id, name: 'Topical', privacy: 'public', is_archived: false, version: VERSION }),
        sender: 'CI Bot',
        topic: 'new topic',
      });
      expect(event.payload.room.version).not.toBe(created.payload.room.version);
      const shown = (await rpc.send(GetRoomV1, { room: { id: room.id } })).room;
      expect(shown).toMatchObject({ topic: 'new topic', version: event.payload.room.version });
      // An empty topic clears it.
      expect(await rpc.send(SetTopicV1, { actor: ACTOR, room: { id: room.id }, topic: '', from: 'CI Bot' })).toEqual({});
      expect((await rpc.send(GetRoomV1, { room: { id: room.id } })).room.topic).toBe('');
    });

    it('rooms.send-notification.v1 answers the message id and date and publishes room.notification-sent.v2', async () => {
      const room = await createRoom('Alerts', { privacy: 'private' });
      const mentioned = await rpc.createUser('Mentioned Person', { mentionName: 'mp' });
      const reply = await rpc.send(SendNotificationV1, {
        actor: ACTOR, room: { id: room.id }, from: 'Nagios', message: 'disk full, @mp and @owner please look (@nobody)',
        messageFormat: 'text', notify: true, color: 'red',
      });
      expect(reply).toEqual({ messageId: UUID, date: ISO });
      expect(Math.abs(Date.parse(reply.date) - Date.now())).toBeLessThan(60_000);
      const event = await capture.waitFor(RoomNotificationSentV2.routingKey, (e) => e.payload.message.id === reply.messageId);
      expect(event.payload).toEqual({
        room: expect.objectContaining({
          id: room.id, privacy: 'private', version: room.version, links: expect.objectContaining({ members: `${BASE}/v2/room/${room.id}/member` }),
        }),
        message: {
          color: 'red',
          date: reply.date,
          from: 'Nagios',
          id: reply.messageId,
          mentions: [userObject(owner.id, 'Room Owner', 'owner'), userObject(mentioned.id, 'Mentioned Person', 'mp')],
          message: 'disk full, @mp and @owner please look (@nobody)',
          message_format: 'text',
          type: 'notification',
        },
        notify: true,
      });

      // html is sanitized, and mentions are only read from text messages.
      const html = await notify({ name: 'alerts' }, '<b>build</b> ok @mp <script>alert(1)</script>', {
        from: 'Jenkins', messageFormat: 'html', notify: false, color: 'green',
      });
      const htmlEvent = await capture.waitFor(RoomNotificationSentV2.routingKey, (e) => e.payload.message.id === html.messageId);
      expect(htmlEvent.payload.message).toMatchObject({ mentions: [], message_format: 'html', color: 'green', from: 'Jenkins' });
      expect(htmlEvent.payload.message.message).toContain('<b>build</b> ok @mp');
      expect(htmlEvent.payload.message.message).not.toContain('script');
      expect(htmlEvent.payload.notify).toBe(false);
      expect(htmlEvent.payload).not.toHaveProperty('card');

      // A v2 card travels with the event, for the bridges (the webhook's item leaves it out).
      const card = { style: 'link', id: 'c-1', title: 'Build 42 passed', url: 'https://ci.example/42', attributes: [{ label: 'branch', value: { label: 'main' } }] };
      const carded = await notify({ id: room.id }, 'build passed', { card });
      const cardEvent = await capture.waitFor(RoomNotificationSentV2.routingKey, (e) => e.payload.message.id === carded.messageId);
      expect(cardEvent.payload.card).toEqual(card);

      // `random` is resolved once: the event and the history carry the colour stored.
      const random = await notify({ id: room.id }, 'any colour', { color: 'random' });
      const randomEvent = await capture.waitFor(RoomNotificationSentV2.routingKey, (e) => e.payload.message.id === random.messageId);
      expect(NOTIFICATION_COLORS).toContain(randomEvent.payload.message.color);
      const history = await rpc.send(GetHistoryV2, { room: { id: room.id }, ...RECENT });
      expect(history.messages.find((m) => m.id === random.messageId)?.color).toBe(randomEvent.payload.message.color);

      // The room's last activity is its newest message.
      const shown = await rpc.send(GetRoomV1, { room: { name: 'Alerts' } });
      expect(shown.room.lastActive).toBe(random.date);
      expect((await rpc.send(ListRoomsV1, {})).rooms.find((r) => r.id === room.id)?.lastActive).toBe(random.date);
    });

    it('refuses a notification whose html is empty once sanitized, and stores nothing', async () => {
      const room = await createRoom('Sanitized');
      expect(await rpc.refused(SendNotificationV1, {
        actor: ACTOR, room: { id: room.id }, from: 'x', message: '<script>alert(1)</script>', messageFormat: 'html', notify: false, color: 'gray',
      })).toEqual({ code: 'invalid', reason: 'message_empty_after_sanitizing', field: 'message' });
      expect(await sql(stack.databaseUrl, 'SELECT id FROM messages WHERE room_id = $1', [room.id])).toEqual([]);
    });

    it('rooms.get-history.v2 answers a page of the room\'s messages, oldest first', async () => {
      const room = await createRoom('Historic');
      const sent = [];
      for (const text of ['first', 'second']) sent.push(await notify({ name: 'Historic' }, text));
      const recent = await rpc.send(GetHistoryV2, { room: { id: room.id }, ...RECENT });
      expect(recent).toEqual({
        messages: sent.map((s, i) => ({
          id: s.messageId, date: s.date, type: 'notification', from: { userId: null, name: 'Bot' },
          message: ['first', 'second'][i], messageFormat: 'text', color: 'yellow',
        })),
      });
      const today = readHistoryDate(new Date().toISOString().slice(0, 10), 'UTC')!;
      const day = await rpc.send(GetHistoryV2, {
        room: { name: 'historic' }, recentOnly: false, offset: 0, details: false, since: today.start.toISOString(), before: today.end.toISOString(),
      });
      expect(day.messages.map((m) => m.message)).toEqual(['first', 'second']);
      expect(await rpc.send(GetHistoryV2, {
        room: { name: 'historic' }, recentOnly: false, offset: 0, details: false, since: '2001-01-01T00:00:00Z', before: '2001-01-02T00:00:00Z',
      })).toEqual({ messages: [] });
    });

    it('rooms.delete-room.v1 answers {} and publishes room.deleted.v2 with the last room state', async () => {
      const room = await createRoom('Doomed', { privacy: 'private' });
      await notify({ id: room.id }, 'last words');
      expect(await rpc.send(DeleteRoomV1, { actor: { label: 'Admin Script' }, room: { name: 'doomed' } })).toEqual({});
      const event = await capture.waitFor(RoomDeletedV2.routingKey, (e) => e.payload.room.id === room.id);
      expect(event.payload).toEqual({
        room: {
          id: room.id, is_archived: false, name: 'Doomed', privacy: 'private', version: room.version,
          links: {
            self: `${BASE}/v2/room/${room.id}`,
            participants: `${BASE}/v2/room/${room.id}/participant`,
            webhooks: `${BASE}/v2/room/${room.id}/webhook`,
            members: `${BASE}/v2/room/${room.id}/member`,
          },
        },
        sender: 'Admin Script',
      });
      expect(await rpc.refused(GetRoomV1, { room: { id: room.id } }))
        .toEqual({ code: 'not_found', reason: 'room_not_found', field: 'room', detail: { ref: String(room.id) } });
      expect(await sql(stack.databaseUrl, 'SELECT id FROM messages WHERE room_id = $1', [room.id])).toEqual([]);

      // Without a label, the sender is API.
      const unlabelled = await createRoom('Doomed Too');
      expect(await rpc.send(DeleteRoomV1, { actor: { label: '' }, room: { id: unlabelled.id } })).toEqual({});
      expect((await capture.waitFor(RoomDeletedV2.routingKey, (e) => e.payload.room.id === unlabelled.id)).payload.sender).toBe('API');
    });

    it('answers not_found for an unknown room on every room command', async () => {
      const missing = { code: 'not_found', reason: 'room_not_found', field: 'room', detail: { ref: 'No Such Room' } };
      const room = { name: 'No Such Room' };
      expect(await rpc.refused(GetRoomV1, { room })).toEqual(missing);
      expect(await rpc.refused(DeleteRoomV1, { room, actor: ACTOR })).toEqual(missing);
      expect(await rpc.refused(GetHistoryV2, { room, ...RECENT })).toEqual(missing);
      expect(await rpc.refused(SetTopicV1, { room, actor: ACTOR, topic: 'x', from: 'API' })).toEqual(missing);
      expect(await rpc.refused(SendNotificationV1, {
        room, actor: ACTOR, from: 'x', message: 'x', messageFormat: 'text', notify: false, color: 'yellow',
      })).toEqual(missing);
      expect(await rpc.refused(GetRoomV1, { room: { id: 987654 } }))
        .toEqual({ ...missing, detail: { ref: '987654' } });
      expect(await rpc.refused(CreateRoomV1, {
        actor: ACTOR, name: 'Orphan', owner: { id: 987654 }, privacy: 'public', topic: '', guestAccess: false,
      })).toEqual(userMissing('987654', 'owner'));
    });

    it('answers conflict for a duplicate room name (case-insensitive), without an event', async () => {
      await createRoom('Unique Name');
      expect(await rpc.refused(CreateRoomV1, {
        actor: ACTOR, name: 'unique NAME', owner: { id: owner.id }, privacy: 'private', topic: '', guestAccess: false,
      })).toEqual({ code: 'conflict', reason: 'room_name_taken', field: 'name', detail: { name: 'unique NAME' } });
      await sleep(200);
      expect(capture.of(RoomCreatedV2.routingKey, (e) => e.payload.room.name === 'unique NAME')).toEqual([]);
    });

    it('answers invalid for history bounds that are not instants, or a not-before that is no message of the room', async () => {
      // Edges read their own date parameters (v1 `date`, v2 `date`/`end-date`) into instants; the command checks them again.
      expect(await rpc.refused(GetHistoryV2, { room: { name: 'Ops Room' }, ...RECENT, since: '2020-13-45' }))
        .toEqual({ code: 'invalid', reason: 'rule', field: 'since', detail: { problem: expect.stringContaining('ISO 8601') } });
      expect(await rpc.refused(GetHistoryV2, { room: { name: 'Ops Room' }, ...RECENT, notBefore: 'no-such-message' }))
        .toEqual({ code: 'invalid', reason: 'rule', field: 'notBefore', detail: { problem: expect.stringContaining('no-such-message') } });
    });
  });

  /** Every command is parsed with its contract's schema where it is received: no 500 for bad input. */
  describe('schema checks at receipt', () => {
    let roomId: number;
    const rule = (field: string, problem: unknown = expect.any(String)) => ({ code: 'invalid', reason: 'rule', field, detail: { problem } });
    const note = { actor: ACTOR, from: 'x', message: 'hello', messageFormat: 'text', notify: false, color: 'gray' };

    beforeAll(async () => {
      const owner = await rpc.createUser('Schema Owner');
      roomId = (await rpc.send(CreateRoomV1, {
        actor: ACTOR, name: 'Schema Room', owner: { id: owner.id }, privacy: 'public', topic: 'unchanged', guestAccess: false,
      })).room.id;
    });

    it('answers invalid/rule naming the field for a value of the wrong type', async () => {
      expect(await rpc.refused(SetTopicV1, { actor: ACTOR, room: { id: roomId }, topic: 5, from: 'API' })).toEqual(rule('topic'));
      expect(await rpc.refused(SetTopicV1, { actor: ACTOR, room: { id: 'x' }, topic: 't', from: 'API' })).toEqual(rule('room'));
      expect(await rpc.refused(GetRoomV1, { room: { id: roomId, name: 'Schema Room' } })).toEqual(rule('room'));
      expect(await rpc.refused(SendNotificationV1, { ...note, room: { id: roomId }, notify: 'yes' }))
        .toEqual(rule('notify', 'must be true or false'));
      expect(await rpc.refused(SendNotificationV1, { ...note, room: { id: roomId }, color: 'blue' }))
        .toEqual(rule('color', expect.stringContaining('must be one of')));
      expect(await rpc.refused(SendNotificationV1, { ...note, room: { id: roomId }, message: 'x'.repeat(10_001) }))
        .toEqual(rule('message', expect.stringContaining('at most 10,000')));
      expect(await rpc.refused(CreateRoomV1, {
        actor: ACTOR, name: '12345', owner: { id: 1 }, privacy: 'public', topic: '', guestAccess: false,
      })).toEqual(rule('name', expect.stringContaining('only digits')));
      expect(await rpc.refused(CreateUserV1, { email: 'not-an-address', name: 'X' })).toEqual(rule('email', expect.stringContaining('e-mail')));
      expect(await rpc.refused(SendNotificationV1, { ...note })).toEqual(rule('room'));
      expect(await rpc.refused(SendNotificationV1, { ...note, room: { id: roomId }, actor: { label: 7 } })).toEqual(rule('actor'));
    });

    it('answers invalid/rule for text PostgreSQL or JSON cannot carry: NUL, lone surrogates', async () => {
      expect(await rpc.refused(SendNotificationV1, { ...note, room: { id: roomId }, message: 'a\u0000b' }))
        .toEqual(rule('message', 'must not contain NUL characters'));
      expect(await rpc.refused(SetTopicV1, { actor: ACTOR, room: { id: roomId }, topic: 'bad \ud800 topic', from: 'API' }))
        .toEqual(rule('topic', expect.stringContaining('surrogate')));
      expect(await rpc.refused(SetTopicV1, { actor: ACTOR, room: { id: roomId }, topic: '<b>bold</b>', from: 'API' }))
        .toEqual(rule('topic', 'must not contain HTML'));
      expect(await rpc.refused(SendNotificationV1, { ...note, room: { id: roomId }, from: '\udc00' }))
        .toEqual(rule('from', expect.stringContaining('surrogate')));
      expect(await rpc.refused(GetRoomV1, { room: { name: 'a\u0000' } })).toEqual(rule('room'));
      expect(await rpc.refused(CreateUserV1, { email: 'nul@example.com', name: 'Nul\u0000' })).toEqual(rule('name'));
      // Nothing was applied.
      expect(await sql(stack.databaseUrl, 'SELECT count(*)::int AS n FROM messages WHERE room_id = $1', [roomId])).toEqual([{ n: 0 }]);
      expect((await rpc.send(GetRoomV1, { room: { id: roomId } })).room.topic).toBe('unchanged');
    });

    it('answers invalid/rule for a body that is not JSON and for an unknown command', async () => {
      const raw = await RawCommands.open(stack.amqpUrl, stack.namespace);
      try {
        expect(await raw.send(SetTopicV1.pattern, null, { rawBody: Buffer.from('{"topic": ') }))
          .toEqual({ error: { code: 'invalid', reason: 'rule', detail: { problem: 'the command is not valid JSON' } } });
        expect(await raw.send('rooms.no-such-command.v1', {}))
          .toEqual({ error: { code: 'invalid', reason: 'rule', detail: { problem: expect.stringContaining('rooms.no-such-command.v1') } } });
        // A payload that is not an object names no field.
        expect(await raw.send(GetRoomV1.pattern, [1, 2]))
          .toEqual({ error: { code: 'invalid', reason: 'rule', detail: { problem: expect.any(String) } } });
      } finally {
        await raw.close();
      }
    });

    it('serves a batch of commands (rpc.command-batch.v1) each as if alone, and answers them in one reply batch, in order', async () => {
      const raw = await RawCommands.open(stack.amqpUrl, stack.namespace);
      try {
        const owner = await rpc.createUser('Batch Owner', { mentionName: 'batchowner' });
        const { room } = await rpc.send(CreateRoomV1, { actor: ACTOR, name: 'Batched', privacy: 'public', topic: 'before', guestAccess: false, owner: { id: owner.id } });
        const reply = await raw.sendBatch([
          { pattern: SetTopicV1.pattern, payload: { actor: ACTOR, room: { id: room.id }, topic: 'set in a batch' } },
          { pattern: GetRoomV1.pattern, payload: { room: { id: 999_999 } } },
          { pattern: 'rooms.no-such-command.v1', payload: {} },
          { pattern: SetTopicV1.pattern, payload: { actor: ACTOR, room: { id: room.id }, topic: 'too late' }, deadline: Date.now() - 1 },
          { pattern: GetRoomV1.pattern, payload: { room: { id: room.id } } },
        ]);
        expect(reply.type).toBe('rpc.reply-batch.v1');
        const replies = (reply.body as { replies: Array<{ correlationId: string; reply: any }> }).replies;
        expect(replies.map((r) => r.correlationId.split('#')[0])).toEqual([
          SetTopicV1.pattern, GetRoomV1.pattern, 'rooms.no-such-command.v1', SetTopicV1.pattern, GetRoomV1.pattern,
        ]);
        expect(replies[0].reply).toEqual({ ok: {} });
        expect(replies[1].reply).toMatchObject({ error: { code: 'not_found' } });
        expect(replies[2].reply).toEqual({ error: { code: 'invalid', reason: 'rule', detail: { problem: expect.stringContaining('rooms.no-such-command.v1') } } });
        // Past its own deadline: refused, whatever the others of its batch.
        expect(replies[3].reply).toMatchObject({ error: { code: 'unavailable', reason: 'deadline_passed' } });
        expect((await rpc.send(GetRoomV1, { room: { id: room.id } })).room.topic).toBe('set in a batch');
        await capture.waitFor(RoomTopicChangedV2.routingKey, (e) => e.payload.room.id === room.id && e.payload.topic === 'set in a batch');
        // A batch that is not one is dropped (no correlation id to answer): the queue goes on.
        await expect(raw.sendBatch([], Buffer.from('{"commands": 3}'), 1_000)).rejects.toThrow('no reply');
        expect(await raw.send(GetRoomV1.pattern, { room: { id: room.id } })).toMatchObject({ ok: { room: { id: room.id } } });
      } finally {
        await raw.close();
      }
    });

    it('answers each of many requests sent at once by one client (they travel in batches) with its own reply', async () => {
      const owner = await rpc.createUser('Many Owner', { mentionName: 'manyowner' });
      const names = Array.from({ length: 40 }, (_, i) => `Many at once ${i}`);
      const created = await Promise.all(names.map((name) =>
        rpc.send(CreateRoomV1, { actor: ACTOR, name, privacy: 'public', topic: name, guestAccess: false, owner: { id: owner.id } })));
      expect(created.map((c) => c.room.name)).toEqual(names);
      const read = await Promise.all([
        ...created.map((c) => rpc.send(GetRoomV1, { room: { id: c.room.id } })),
        rpc.refused(GetRoomV1, { room: { id: 999_998 } }),
      ]);
      expect(read.slice(0, 40).map((r: any) => [r.room.id, r.room.topic])).toEqual(created.map((c) => [c.room.id, c.room.name]));
      expect(read[40]).toMatchObject({ code: 'not_found' });
    });
  });
});
