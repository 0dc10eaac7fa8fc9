import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { NOTIFICATION_COLORS } from '@app/contracts';
import { EventCapture, Stack, startStack } from '../../../test/support/harness';
import {
  asXmlText, call, expectError, expectJson, expectRateLimitHeaders, expectXml, expectXmlError, v1, XML_DECLARATION,
} from './gateway-helpers';

const ROOM_KEYS = ['created', 'guest_access_url', 'is_archived', 'is_private', 'last_active', 'name', 'owner_user_id', 'room_id', 'topic', 'xmpp_jid'];

describe('v1 rooms/* (real rooms service, Postgres, RabbitMQ)', () => {
  let stack: Stack;
  let capture: EventCapture;
  let admin: string;
  let ownerId: number;
  let mentionedId: number;
  let roomId: number;
  const ROOM = 'Dev Ops Room';

  const get = (method: string, params: Record<string, string | number>) => v1(stack.baseUrl, 'GET', method, { auth_token: admin, ...params });
  const post = (method: string, params: Record<string, string | number>) => v1(stack.baseUrl, 'POST', method, { auth_token: admin, ...params });
  const send = (params: Record<string, string | number>) => post('rooms/message', { room_id: roomId, from: 'Bot', ...params });
  const recent = async (room: string | number = roomId) => expectJson(await get('rooms/history', { room_id: room, date: 'recent' }), 200).messages as Array<{ date: string; from: { name: string; user_id: unknown }; message: string }>;
  const notificationEvent = (text: string) => capture.waitFor('room.notification-sent.v2', (e) => (e.payload as { message: { message: string } }).message.message === text);

  beforeAll(async () => {
    // This suite makes more requests than the default limit of one token allows.
    stack = await startStack({ gateway: { RATE_LIMIT_MAX: '10000' }, rooms: true });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    admin = await stack.createToken('admin', 'Rooms Admin');
    ownerId = expectJson(await post('users/create', { email: 'owner@example.com', name: 'Room Owner', mention_name: 'owner' }), 200).user.user_id;
    mentionedId = expectJson(await post('users/create', { email: 'some@example.com', name: 'Some User', mention_name: 'someuser' }), 200).user.user_id;
    roomId = expectJson(await post('rooms/create', { name: ROOM, owner_user_id: ownerId, topic: 'Initial topic' }), 200).room.room_id;
  });
  afterAll(async () => {
    await capture?.stop();
    await stack?.stop();
  });

  describe('rooms/create', () => {
    it('creates a public room and answers {room: ROOM} with every record field', async () => {
      const before = Math.floor(Date.now() / 1000);
      const res = await post('rooms/create', { name: 'Created Room', owner_user_id: ownerId });
      const { room } = expectJson(res, 200);
      expectRateLimitHeaders(res);
      expect(Object.keys(res.json)).toEqual(['room']);
      expect(Object.keys(room).sort()).toEqual(ROOM_KEYS);
      expect(room).toMatchObject({
        name: 'Created Room', topic: '', last_active: 0, owner_user_id: ownerId, is_archived: false, is_private: false,
        guest_access_url: null,
      });
      expect(Number.isInteger(room.room_id)).toBe(true);
      expect(room.created).toBeGreaterThanOrEqual(before - 5);
      expect(room.created).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 5);
      expect(typeof room.xmpp_jid).toBe('string');
      expect(room.xmpp_jid).toMatch(/^\S+@\S+$/);
      const created = await capture.waitFor('room.created.v2', (e) => (e.payload as { room: { id: number } }).room.id === room.room_id);
      expect(created.payload).toMatchObject({ room: { id: room.room_id, name: 'Created Room', privacy: 'public', is_archived: false } });
    });

    it('creates a private room with guest access and a topic', async () => {
      const { room } = expectJson(await post('rooms/create', { name: 'Secret Room', owner_user_id: ownerId, privacy: 'private', topic: 'Hush', guest_access: 1 }), 200);
      expect(room).toMatchObject({ name: 'Secret Room', topic: 'Hush', is_private: true });
      expect(typeof room.guest_access_url).toBe('string');
      expect(room.guest_access_url).toMatch(/^https?:\/\//);
      const shown = expectJson(await get('rooms/show', { room_id: 'Secret Room' }), 200).room;
      expect(shown.member_user_ids).toEqual([ownerId]);
    });

    it('answers in XML mirroring the JSON', async () => {
      const res = await call(stack.baseUrl, 'rooms/create', { verb: 'POST', form: { auth_token: admin, name: 'Xml Room', owner_user_id: ownerId, format: 'xml' } });
      const doc = expectXml(res, 200) as { room: Record<string, string> };
      expect(Object.keys(doc)).toEqual(['room']);
      expect(Object.keys(doc.room).sort()).toEqual(ROOM_KEYS);
      const shown = expectJson(await get('rooms/show', { room_id: 'Xml Room' }), 200).room;
      const { member_user_ids: _m, participants: _p, ...record } = shown;
      expect(doc).toEqual({ room: asXmlText(record) });
      expect(res.text).toContain('<is_archived>false</is_archived>');
      expect(res.text).toMatch(/<guest_access_url\/>|<guest_access_url><\/guest_access_url>/);
    });

    it('answers 400 naming the parameter for a name already taken (any case)', async () => {
      expectError(await post('rooms/create', { name: ROOM.toUpperCase(), owner_user_id: ownerId }), 400, 'Bad Request', /^name: /);
    });

    it('answers 400 for each broken rule', async () => {
      expectError(await post('rooms/create', { owner_user_id: ownerId }), 400, 'Bad Request', /^name: /);
      expectError(await post('rooms/create', { name: 'No Owner' }), 400, 'Bad Request', /^owner_user_id: /);
      expectError(await post('rooms/create', { name: 'Bad Owner', owner_user_id: 'bob' }), 400, 'Bad Request', /^owner_user_id: /);
      expectError(await post('rooms/create', { name: '12345', owner_user_id: ownerId }), 400, 'Bad Request', /^name: /);
      expectError(await post('rooms/create', { name: 'n'.repeat(51), owner_user_id: ownerId }), 400, 'Bad Request', /^name: /);
      expectError(await post('rooms/create', { name: 'Bad Privacy', owner_user_id: ownerId, privacy: 'secret' }), 400, 'Bad Request', /^privacy: /);
      expectError(await post('rooms/create', { name: 'Bad Topic', owner_user_id: ownerId, topic: '<b>x</b>' }), 400, 'Bad Request', /^topic: /);
      expectXmlError(await post('rooms/create', { name: 'Bad Guest', owner_user_id: ownerId, guest_access: 'x', format: 'xml' }), 400, 'Bad Request', /^guest_access: /);
    });

    it('takes the owner by e-mail address, as users/* take user_id', async () => {
      const { room } = expectJson(await post('rooms/create', { name: 'Owned By Address', owner_user_id: 'owner@example.com' }), 200);
      expect(room).toMatchObject({ name: 'Owned By Address', owner_user_id: ownerId });
      expect(expectJson(await post('rooms/create', { name: 'Orphan By Address', owner_user_id: 'ghost@example.com' }), 404))
        .toEqual({ error: { code: 404, type: 'Not Found', message: 'owner_user_id: user ghost@example.com not found' } });
      expect(expectJson(await post('rooms/create', { name: 'Bad Owner', owner_user_id: 'bob' }), 400))
        .toEqual({ error: { code: 400, type: 'Bad Request', message: 'owner_user_id: must be a user ID or an e-mail address (got "bob")' } });
    });

    it('answers 404 for an unknown owner', async () => {
      expect(expectJson(await post('rooms/create', { name: 'Orphan Room', owner_user_id: 999999 }), 404))
        .toEqual({ error: { code: 404, type: 'Not Found', message: 'owner_user_id: user 999999 not found' } });
    });
  });

  describe('an unknown room', () => {
    // compatibility.md: clients match `Room <id or name> not found`, as v2 words it.
    it.each<[string, 'GET' | 'POST', Record<string, string | number>]>([
      ['rooms/message', 'POST', { from: 'Bot', message: 'm' }],
      ['rooms/message', 'GET', { from: 'Bot', message: 'm' }],
      ['rooms/show', 'GET', {}],
      ['rooms/topic', 'POST', { topic: 't' }],
      ['rooms/history', 'GET', { date: 'recent' }],
      ['rooms/delete', 'POST', {}],
    ])('%s (%s) answers 404 "Room <id or name> not found"', async (method, verb, params) => {
      for (const ref of ['Nope', 'No Such Room', 987654]) {
        const res = await v1(stack.baseUrl, verb, method, { auth_token: admin, room_id: ref, ...params });
        expect(expectJson(res, 404)).toEqual({ error: { code: 404, type: 'Not Found', message: `Room ${ref} not found` } });
      }
    });
  });

  describe('rooms/list', () => {
    it('answers {rooms: [ROOM...]} in JSON', async () => {
      const res = await get('rooms/list', {});
      const { rooms } = expectJson(res, 200);
      expect(Object.keys(res.json)).toEqual(['rooms']);
      expect(rooms.length).toBeGreaterThanOrEqual(1);
      for (const r of rooms) expect(Object.keys(r).sort()).toEqual(ROOM_KEYS);
      expect(rooms.find((r: { room_id: number }) => r.room_id === roomId)).toMatchObject({
        name: ROOM, topic: expect.any(String), owner_user_id: ownerId, is_archived: false, is_private: false,
        last_active: expect.any(Number), created: expect.any(Number),
      });
    });

    it('answers <rooms><room>...</room></rooms> in XML, mirroring the JSON', async () => {
      const json = expectJson(await get('rooms/list', {}), 200);
      const res = await get('rooms/list', { format: 'xml' });
      const doc = expectXml(res, 200);
      expect(doc).toEqual(asXmlText(json));
      expect(res.text.startsWith(`${XML_DECLARATION}<rooms><room><room_id>`)).toBe(true);
    });
  });

  describe('rooms/show', () => {
    it('answers {room: ROOM + member_user_ids + participants} by ID', async () => {
      const res = await get('rooms/show', { room_id: roomId });
      const { room } = expectJson(res, 200);
      expect(Object.keys(res.json)).toEqual(['room']);
      expect(Object.keys(room).sort()).toEqual([...ROOM_KEYS, 'member_user_ids', 'participants'].sort());
      expect(room).toMatchObject({ room_id: roomId, name: ROOM, owner_user_id: ownerId, member_user_ids: [], participants: [] });
    });

    it('finds a room by a name with spaces, URL-encoded', async () => {
      const encoded = await fetch(`${stack.baseUrl}/v1/rooms/show?room_id=Dev%20Ops%20Room&auth_token=${admin}`);
      expect(encoded.status).toBe(200);
      expect(((await encoded.json()) as { room: { room_id: number } }).room.room_id).toBe(roomId);
      const plus = await fetch(`${stack.baseUrl}/v1/rooms/show?room_id=Dev+Ops+Room&auth_token=${admin}`);
      expect(((await plus.json()) as { room: { room_id: number } }).room.room_id).toBe(roomId);
    });

    it('answers in XML with member_user_id items', async () => {
      const json = expectJson(await get('rooms/show', { room_id: 'Secret Room' }), 200);
      const res = await get('rooms/show', { room_id: 'Secret Room', format: 'xml' });
      expect(expectXml(res, 200)).toEqual(asXmlText(json));
      expect(res.text).toContain(`<member_user_ids><member_user_id>${ownerId}</member_user_id></member_user_ids>`);
    });

    it('answers 404 for an unknown room, in JSON and XML', async () => {
      expectError(await get('rooms/show', { room_id: 'No Such Room' }), 404, 'Not Found', /^Room No Such Room not found$/);
      expectError(await get('rooms/show', { room_id: 987654 }), 404, 'Not Found', /^Room 987654 not found$/);
      expectXmlError(await get('rooms/show', { room_id: 'No Such Room', format: 'xml' }), 404, 'Not Found', /^Room No Such Room not found$/);
    });

    it('answers 400 without room_id', async () => {
      expectError(await get('rooms/show', {}), 400, 'Bad Request', /^room_id: /);
    });
  });

  describe('rooms/message', () => {
    it('answers {status: "sent"} and stores the message', async () => {
      const res = await send({ message: 'Hello from the API' });
      expect(expectJson(res, 200)).toEqual({ status: 'sent' });
      expect(res.text).toBe('{"status":"sent"}');
      expectRateLimitHeaders(res);
      const last = (await recent()).at(-1)!;
      expect(last).toMatchObject({ message: 'Hello from the API', from: { name: 'Bot', user_id: 'api' } });
    });

    it('answers <status>sent</status> in XML', async () => {
      const res = await send({ message: 'xml please', format: 'xml' });
      expectXml(res, 200);
      expect(res.text).toBe(`${XML_DECLARATION}<status>sent</status>`);
    });

    it('accepts a room name with spaces as room_id', async () => {
      expect(expectJson(await send({ room_id: ROOM, message: 'by name' }), 200)).toEqual({ status: 'sent' });
      expect((await recent()).at(-1)!.message).toBe('by name');
    });

    it('publishes the notification event with room links, from, color, message_format and notify', async () => {
      expect(expectJson(await send({ from: 'Deploy Bot', message: 'event check', color: 'green', notify: 1 }), 200)).toEqual({ status: 'sent' });
      const event = await notificationEvent('event check');
      const payload = event.payload as any;
      expect(payload.notify).toBe(true);
      expect(payload.room).toMatchObject({ id: roomId, name: ROOM, privacy: 'public', is_archived: false, version: expect.any(String) });
      expect(payload.room.links.self).toMatch(new RegExp(`/v2/room/${roomId}$`));
      expect(payload.room.links.participants).toMatch(new RegExp(`/v2/room/${roomId}/participant$`));
      expect(payload.room.links.webhooks).toMatch(new RegExp(`/v2/room/${roomId}/webhook$`));
      expect(payload.message).toMatchObject({
        from: 'Deploy Bot', color: 'green', message_format: 'html', message: 'event check', type: 'notification', mentions: [],
        id: expect.any(String),
      });
      expect(new Date(payload.message.date).toISOString()).toBe(payload.message.date);
    });

    it('defaults to html, yellow and no notification; an empty color= counts as absent', async () => {
      expect(expectJson(await send({ message: 'defaults', color: '', notify: '' }), 200)).toEqual({ status: 'sent' });
      const payload = (await notificationEvent('defaults')).payload as any;
      expect(payload.message).toMatchObject({ color: 'yellow', message_format: 'html' });
      expect(payload.notify).toBe(false);
    });

    it('accepts notify as true/false', async () => {
      expectJson(await send({ message: 'notify true', notify: 'true' }), 200);
      expect(((await notificationEvent('notify true')).payload as any).notify).toBe(true);
      expectJson(await send({ message: 'notify false', notify: 'false' }), 200);
      expect(((await notificationEvent('notify false')).payload as any).notify).toBe(false);
    });

    it('stores color=random as one of the five colours', async () => {
      for (let i = 0; i < 6; i++) {
        expectJson(await send({ message: `random ${i}`, color: 'random' }), 200);
        const color = ((await notificationEvent(`random ${i}`)).payload as any).message.color;
        expect(NOTIFICATION_COLORS).toContain(color);
      }
    });

    it('resolves @mentions of a text message to users', async () => {
      expectJson(await send({ message: 'ping @someuser and @nobody', message_format: 'text' }), 200);
      const payload = (await notificationEvent('ping @someuser and @nobody')).payload as any;
      expect(payload.message.message_format).toBe('text');
      expect(payload.message.mentions).toHaveLength(1);
      expect(payload.message.mentions[0]).toMatchObject({ id: mentionedId, mention_name: 'someuser', name: 'Some User', version: expect.any(String) });
      expect(payload.message.mentions[0].links.self).toMatch(new RegExp(`/v2/user/${mentionedId}$`));
    });

    it('does not resolve mentions in html messages', async () => {
      expectJson(await send({ message: 'html @someuser' }), 200);
      expect(((await notificationEvent('html @someuser')).payload as any).message.mentions).toEqual([]);
    });

    it('sanitizes html messages, visibly in rooms/history', async () => {
      const dirty = '<b onclick="steal()">bold</b> <a href="javascript:alert(1)">link</a> <script>alert("x")</script><i style="color:red">it</i> <a href="https://example.com/">ok</a>';
      expect(expectJson(await send({ message: dirty }), 200)).toEqual({ status: 'sent' });
      const stored = (await recent()).at(-1)!.message;
      expect(stored).toBe('<b>bold</b> <a>link</a> <i>it</i> <a href="https://example.com/">ok</a>');
      expect(((await notificationEvent(stored)).payload as any).message.message).toBe(stored);
    });

    it('keeps text messages verbatim', async () => {
      const text = '<b>not html</b> & stays';
      expectJson(await send({ message: text, message_format: 'text' }), 200);
      expect((await recent()).at(-1)!.message).toBe(text);
    });

    it('moves last_active of the room', async () => {
      const { room: fresh } = expectJson(await post('rooms/create', { name: 'Quiet Room', owner_user_id: ownerId }), 200);
      expect(fresh.last_active).toBe(0);
      const before = Math.floor(Date.now() / 1000);
      expectJson(await send({ room_id: fresh.room_id, message: 'wake up' }), 200);
      const shown = expectJson(await get('rooms/show', { room_id: fresh.room_id }), 200).room;
      expect(shown.last_active).toBeGreaterThanOrEqual(before - 2);
      expect(shown.last_active).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 2);
      const listed = expectJson(await get('rooms/list', {}), 200).rooms.find((r: { room_id: number }) => r.room_id === fresh.room_id);
      expect(listed.last_active).toBe(shown.last_active);
    });

    it('answers 400 naming the parameter for each broken rule, and sends nothing', async () => {
      const before = (await recent()).length;
      const cases: Array<[Record<string, string | number>, string]> = [
        [{ from: 'a'.repeat(15), message: 'm' }, 'from'],
        [{ from: 'bot!', message: 'm' }, 'from'],
        [{ message: 'x'.repeat(10_001) }, 'message'],
        [{ message: 'm', message_format: 'markdown' }, 'message_format'],
        [{ message: 'm', color: 'blue' }, 'color'],
        [{ message: 'm', notify: 'yes' }, 'notify'],
        [{ message: '<script>only()</script>' }, 'message'],
      ];
      for (const [params, name] of cases) {
        const res = await send(params);
        expectError(res, 400, 'Bad Request', new RegExp(`^${name}: `));
        expectRateLimitHeaders(res);
      }
      for (const name of ['room_id', 'from', 'message']) {
        const params: Record<string, string | number> = { auth_token: admin, room_id: roomId, from: 'Bot', message: 'm' };
        delete params[name];
        expectError(await v1(stack.baseUrl, 'POST', 'rooms/message', params), 400, 'Bad Request', new RegExp(`^${name}: is required`));
      }
      expectXmlError(await send({ from: 'a'.repeat(20), message: 'm', format: 'xml' }), 400, 'Bad Request', /^from: /);
      expect(await recent()).toHaveLength(before);
    });

    it('words an empty message for what emptied it: blank as sent, or html with nothing allowed left', async () => {
      const before = (await recent()).length;
      const refused = (message: string) => ({ error: { code: 400, type: 'Bad Request', message } });
      // Text is stored verbatim: nothing was removed, the message was blank.
      expect(expectJson(await send({ message: '   ', message_format: 'text' }), 400)).toEqual(refused('message: must not be blank'));
      expect(expectJson(await send({ message: '   ' }), 400)).toEqual(refused('message: must not be blank'));
      expect(expectJson(await send({ message: '<script>only()</script>', message_format: 'html' }), 400))
        .toEqual(refused('message: is empty once disallowed HTML is removed'));
      expect(await recent()).toHaveLength(before);
    });

    it('accepts the limits themselves: 14-character from and 10,000-character message', async () => {
      const long = 'L'.repeat(10_000);
      expect(expectJson(await send({ from: 'Fourteen Chars', message: long }), 200)).toEqual({ status: 'sent' });
      expect((await recent()).at(-1)).toMatchObject({ message: long, from: { name: 'Fourteen Chars' } });
    });

    it('answers 404 for an unknown room', async () => {
      expectError(await send({ room_id: 'Nowhere Room', message: 'lost' }), 404, 'Not Found', /Nowhere Room/);
      expectXmlError(await send({ room_id: 999999, message: 'lost', format: 'xml' }), 404, 'Not Found');
    });
  });

  describe('rooms/topic', () => {
    it('answers {status: "ok"}, changes the topic and publishes the change with sender API', async () => {
      const res = await post('rooms/topic', { room_id: roomId, topic: 'Release on Friday' });
      expect(expectJson(res, 200)).toEqual({ status: 'ok' });
      expect(res.text).toBe('{"status":"ok"}');
      expect(expectJson(await get('rooms/show', { room_id: roomId }), 200).room.topic).toBe('Release on Friday');
      const event = await capture.waitFor('room.topic-changed.v2', (e) => (e.payload as { topic: string }).topic === 'Release on Friday');
      expect(event.payload).toMatchObject({ room: { id: roomId, name: ROOM }, sender: 'API', topic: 'Release on Friday' });
    });

    it('answers <status>ok</status> in XML and uses from as the sender', async () => {
      const res = await post('rooms/topic', { room_id: ROOM, topic: 'Xml topic', from: 'Jenkins', format: 'xml' });
      expectXml(res, 200);
      expect(res.text).toBe(`${XML_DECLARATION}<status>ok</status>`);
      const event = await capture.waitFor('room.topic-changed.v2', (e) => (e.payload as { topic: string }).topic === 'Xml topic');
      expect((event.payload as { sender: unknown }).sender).toBe('Jenkins');
    });

    it('accepts 250 characters and refuses 251 or HTML, naming topic', async () => {
      expect(expectJson(await post('rooms/topic', { room_id: roomId, topic: 't'.repeat(250) }), 200)).toEqual({ status: 'ok' });
      expectError(await post('rooms/topic', { room_id: roomId, topic: 'u'.repeat(251) }), 400, 'Bad Request', /^topic: .*250/);
      expectError(await post('rooms/topic', { room_id: roomId, topic: 'now <b>bold</b>' }), 400, 'Bad Request', /^topic: .*HTML/);
      expectError(await post('rooms/topic', { room_id: roomId }), 400, 'Bad Request', /^topic: is required/);
      expectError(await post('rooms/topic', { topic: 'x' }), 400, 'Bad Request', /^room_id: is required/);
      expect(expectJson(await get('rooms/show', { room_id: roomId }), 200).room.topic).toBe('t'.repeat(250));
    });

    it('answers 404 for an unknown room', async () => {
      expectError(await post('rooms/topic', { room_id: 'Ghost Room', topic: 'boo' }), 404, 'Not Found');
    });
  });

  describe('rooms/history', () => {
    let historyRoomId: number;
    const HISTORY_ROOM = 'History Room';

    async function insertMessage(room: number, body: string, at: Date, from = 'Importer'): Promise<void> {
      await stack.rooms!.get(DataSource).query(
        `INSERT INTO messages (id, room_id, type, from_label, user_id, body, message_format, color, notify, created_at)
         VALUES ($1, $2, 'notification', $3, NULL, $4, 'html', 'yellow', false, $5)`,
        [randomUUID(), room, from, body, at],
      );
    }

    beforeAll(async () => {
      historyRoomId = expectJson(await post('rooms/create', { name: HISTORY_ROOM, owner_user_id: ownerId }), 200).room.room_id;
      // Messages as if sent at those times, so written in that order: history lists a room's
      // messages in the order they were sent (their events' order), and filters by their dates.
      await insertMessage(historyRoomId, 'utc morning', new Date('2010-11-19T01:00:00Z'));
      // 2010-11-19 15:48:19 in Los Angeles (-0800) is 23:48:19 UTC.
      await insertMessage(historyRoomId, 'la evening', new Date('2010-11-19T23:48:19Z'));
      await insertMessage(historyRoomId, 'utc next day, la same day', new Date('2010-11-20T07:30:00Z'));
      await insertMessage(historyRoomId, 'la next day', new Date('2010-11-20T08:30:00Z'));
    });

    it('answers the messages of a day in UTC by default, dates formatted with the offset', async () => {
      const res = await get('rooms/history', { room_id: historyRoomId, date: '2010-11-19' });
      expect(expectJson(res, 200)).toEqual({
        messages: [
          { date: '2010-11-19T01:00:00+0000', from: { name: 'Importer', user_id: 'api' }, message: 'utc morning' },
          { date: '2010-11-19T23:48:19+0000', from: { name: 'Importer', user_id: 'api' }, message: 'la evening' },
        ],
      });
    });

    it('answers the messages of a day in the requested timezone, dated in that zone', async () => {
      const res = await get('rooms/history', { room_id: HISTORY_ROOM, date: '2010-11-19', timezone: 'America/Los_Angeles' });
      // 'utc morning' (2010-11-18T17:00:00-0800) and 'la next day' (2010-11-20T00:30:00-0800) fall outside.
      expect(expectJson(res, 200).messages).toEqual([
        { date: '2010-11-19T15:48:19-0800', from: { name: 'Importer', user_id: 'api' }, message: 'la evening' },
        { date: '2010-11-19T23:30:00-0800', from: { name: 'Importer', user_id: 'api' }, message: 'utc next day, la same day' },
      ]);
    });

    it('answers an empty list for a day without messages', async () => {
      expect(expectJson(await get('rooms/history', { room_id: historyRoomId, date: '2001-01-01' }), 200)).toEqual({ messages: [] });
    });

    it('answers the first and last days it takes, in any zone, without naming a parameter never sent', async () => {
      // The last day of 9999 in UTC ends in year 10000, the first of year 1 in Kiritimati starts in year 0.
      for (const [date, timezone] of [['9999-12-31', 'UTC'], ['9999-12-31', 'Pacific/Kiritimati'], ['9999-12-31', 'Etc/GMT+12'],
        ['0001-01-01', 'UTC'], ['0001-01-01', 'Pacific/Kiritimati'], ['0001-01-01', 'Etc/GMT-14']]) {
        expect([date, timezone, expectJson(await get('rooms/history', { room_id: historyRoomId, date, timezone }), 200)])
          .toEqual([date, timezone, { messages: [] }]);
      }
    });

    it('answers in XML mirroring the JSON', async () => {
      const json = expectJson(await get('rooms/history', { room_id: historyRoomId, date: '2010-11-19', timezone: 'America/Los_Angeles' }), 200);
      const res = await get('rooms/history', { room_id: historyRoomId, date: '2010-11-19', timezone: 'America/Los_Angeles', format: 'xml' });
      expect(expectXml(res, 200)).toEqual(asXmlText(json));
      expect(res.text).toContain('<messages><message><date>2010-11-19T15:48:19-0800</date><from><name>Importer</name><user_id>api</user_id></from><message>la evening</message></message>');
    });

    it('escapes message HTML in XML and keeps it well-formed', async () => {
      await insertMessage(historyRoomId, '<b>x</b> & y \u0001', new Date('2011-01-01T12:00:00Z'));
      const res = await get('rooms/history', { room_id: historyRoomId, date: '2011-01-01', format: 'xml' });
      const doc = expectXml(res, 200) as { messages: Array<{ message: string }> };
      expect(doc.messages[0].message).toMatch(/^<b>x<\/b> & y /);
      expect(res.text).toContain('&lt;b&gt;x&lt;/b&gt; &amp; y');
    });

    it('answers recent with the newest 75 messages, oldest first', async () => {
      const { room } = expectJson(await post('rooms/create', { name: 'Busy Room', owner_user_id: ownerId }), 200);
      const start = Date.now() - 3_600_000;
      for (let i = 0; i < 80; i++) await insertMessage(room.room_id, `m${i}`, new Date(start + i * 1000));
      expectJson(await send({ room_id: room.room_id, from: 'Live Bot', message: 'newest' }), 200);
      const messages = await recent(room.room_id);
      expect(messages).toHaveLength(75);
      expect(messages.map((m) => m.message)).toEqual([...Array.from({ length: 74 }, (_, i) => `m${i + 6}`), 'newest']);
      expect(messages.at(-1)!.from).toEqual({ name: 'Live Bot', user_id: 'api' });
      expect(messages.at(-1)!.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/);
      const xml = expectXml(await get('rooms/history', { room_id: room.room_id, date: 'recent', format: 'xml' }), 200) as { messages: unknown[] };
      expect(xml.messages).toHaveLength(75);
    });

    it('answers 400 for a bad date or timezone and 404 for an unknown room', async () => {
      expectError(await get('rooms/history', { room_id: historyRoomId }), 400, 'Bad Request', /^date: /);
      expectError(await get('rooms/history', { room_id: historyRoomId, date: '2010-02-30' }), 400, 'Bad Request', /^date: /);
      expectError(await get('rooms/history', { room_id: historyRoomId, date: 'recent', timezone: 'Mars/Base' }), 400, 'Bad Request', /^timezone: /);
      expectError(await get('rooms/history', { room_id: 'Unknown Room', date: 'recent' }), 404, 'Not Found');
      expectXmlError(await get('rooms/history', { room_id: 'Unknown Room', date: 'recent', format: 'xml' }), 404, 'Not Found');
    });
  });

  describe('rooms/delete', () => {
    it('answers {deleted: true} and the room is gone', async () => {
      const { room } = expectJson(await post('rooms/create', { name: 'Doomed Room', owner_user_id: ownerId }), 200);
      expectJson(await send({ room_id: room.room_id, message: 'last words' }), 200);
      const res = await post('rooms/delete', { room_id: 'Doomed Room' });
      expect(expectJson(res, 200)).toEqual({ deleted: true });
      expect(res.text).toBe('{"deleted":true}');
      expectError(await get('rooms/show', { room_id: room.room_id }), 404, 'Not Found');
      expect(expectJson(await get('rooms/list', {}), 200).rooms.map((r: { room_id: number }) => r.room_id)).not.toContain(room.room_id);
      const event = await capture.waitFor('room.deleted.v2', (e) => (e.payload as { room: { id: number } }).room.id === room.room_id);
      expect(event.payload).toMatchObject({ room: { id: room.room_id, name: 'Doomed Room' }, sender: 'Rooms Admin' });
    });

    it('answers <deleted>true</deleted> in XML', async () => {
      const { room } = expectJson(await post('rooms/create', { name: 'Doomed Xml', owner_user_id: ownerId }), 200);
      const res = await post('rooms/delete', { room_id: room.room_id, format: 'xml' });
      expectXml(res, 200);
      expect(res.text).toBe(`${XML_DECLARATION}<deleted>true</deleted>`);
    });

    it('answers 404 for an unknown room and 400 without room_id', async () => {
      expectError(await post('rooms/delete', { room_id: 'Doomed Room' }), 404, 'Not Found');
      expectError(await post('rooms/delete', {}), 400, 'Bad Request', /^room_id: /);
    });
  });
});
