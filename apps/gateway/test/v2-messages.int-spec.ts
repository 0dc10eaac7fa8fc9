import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { NOTIFICATION_COLORS } from '@app/contracts';
import { awayFromWindowEnd, EventCapture, Stack, startStack, v1, V1Response } from '../../../test/support/harness';
import { expectRetryAfter } from './gateway-helpers';
import { v2, v2Session, V2Session } from './v2-helpers';

const BASE = 'http://127.0.0.1:8080';
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ROOM_KEYS = ['id', 'is_archived', 'links', 'name', 'privacy', 'version'];
const USER_KEYS = ['id', 'links', 'mention_name', 'name', 'version'];

const errorOf = (res: V1Response) => ({ status: res.status, message: res.json.error.message as string });

/** A User object (specification: User) of this user. */
const userObject = (id: number, name: string, mentionName: string) =>
  ({ id, links: { self: `${BASE}/v2/user/${id}` }, mention_name: mentionName, name, version: expect.stringMatching(/^[0-9A-F]{8}$/) });

describe('v2 room messages, notifications and history (real services)', () => {
  let stack: Stack;
  let capture: EventCapture;
  let s: V2Session;
  let db: DataSource;
  let floodGateway: string;
  let adaId: number;
  let bobId: number;
  let ada: string;
  let bob: string;
  let roomId: number;
  let secretId: number;
  const ROOM = 'Messages Room';

  const post = (path: string, body: unknown, token = s.token, base = stack.baseUrl) => v2(base, 'POST', path, { token, body });
  const get = (path: string, query: Record<string, string | number | boolean> = {}, token = s.token) => v2(stack.baseUrl, 'GET', path, { token, query });
  const createRoom = async (name: string, owner: number, privacy = 'public') => {
    const res = await v1(stack.baseUrl, 'POST', 'rooms/create', { auth_token: s.v1Admin, name, owner_user_id: owner, privacy });
    if (res.status !== 200) throw new Error(`rooms/create answered ${res.status}: ${res.text}`);
    return res.json.room.room_id as number;
  };
  const messageEvent = (id: string) => capture.waitFor('room.message-sent.v2', (e) => e.payload.message.id === id);
  const notificationEvent = (text: string) => capture.waitFor('room.notification-sent.v2', (e) => e.payload.message.message === text);

  beforeAll(async () => {
    stack = await startStack({ gateway: { V2_RATE_LIMIT_MAX: '100000', FLOOD_CONTROL_MAX: '100000' }, rooms: true });
    floodGateway = await stack.addGateway({ V2_RATE_LIMIT_MAX: '100000', FLOOD_CONTROL_MAX: '3', FLOOD_CONTROL_WINDOW_SECONDS: '3600' });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    s = await v2Session(stack);
    db = stack.rooms!.get(DataSource);
    adaId = await s.createUser('Ada Lovelace', 'ada@example.com', { mention_name: 'ada' });
    bobId = await s.createUser('Bob Builder', 'bob@example.com', { mention_name: 'bob' });
    ada = await s.personalToken(adaId);
    bob = await s.personalToken(bobId);
    roomId = await createRoom(ROOM, s.adminId);
    secretId = await createRoom('Secret Messages', adaId, 'private');
  });
  afterAll(async () => {
    await capture?.stop();
    await stack?.stop();
  });

  describe('POST /v2/room/{room}/message', () => {
    it('answers 201 {id, timestamp} and publishes room_message with the Message object of the specification', async () => {
      const text = 'Hello @bob and @nobody, see https://example.com/docs/page. (done)';
      const res = await post(`room/${roomId}/message`, { message: text }, ada);
      expect(res.status).toBe(201);
      expect(Object.keys(res.json).sort()).toEqual(['id', 'timestamp']);
      expect(res.json.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.json.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/);

      const { payload } = await messageEvent(res.json.id);
      expect(Object.keys(payload).sort()).toEqual(['message', 'room']);
      // Message: date (ISO-8601), from (User object), id (string), mentions (User objects), message,
      // message_links (the last link), type.
      const { message, room } = payload;
      expect(Object.keys(message).sort()).toEqual(['date', 'from', 'id', 'mentions', 'message', 'message_links', 'type']);
      expect(message.date).toMatch(ISO_UTC);
      expect(new Date(message.date).getTime()).toBe(new Date(res.json.timestamp).getTime());
      expect(Object.keys(message.from).sort()).toEqual(USER_KEYS);
      expect(message.from).toEqual(userObject(adaId, 'Ada Lovelace', 'ada'));
      expect(message.id).toBe(res.json.id);
      expect(message.mentions).toEqual([userObject(bobId, 'Bob Builder', 'bob')]);
      expect(message.message).toBe(text);
      expect(message.message_links).toEqual([{ type: 'link', url: 'https://example.com/docs/page' }]);
      expect(message.type).toBe('message');
      // Room: id, is_archived, links (self, participants, webhooks), name, privacy, version.
      expect(Object.keys(room).sort()).toEqual(ROOM_KEYS);
      expect(room).toEqual({
        id: roomId, is_archived: false, name: ROOM, privacy: 'public', version: expect.any(String),
        links: { self: `${BASE}/v2/room/${roomId}`, participants: `${BASE}/v2/room/${roomId}/participant`, webhooks: `${BASE}/v2/room/${roomId}/webhook` },
      });
    });

    it('leaves message_links out when the text has no link, and extracts an image link', async () => {
      const plain = await post(`room/${ROOM}/message`, { message: 'no links here' }, ada);
      expect(plain.status).toBe(201);
      const event = await messageEvent(plain.json.id);
      expect(event.payload.message).not.toHaveProperty('message_links');
      expect(event.payload.message.mentions).toEqual([]);
      const image = await post(`room/${roomId}/message`, { message: 'look http://a.example/x.png and https://b.example/cat.gif' }, ada);
      expect((await messageEvent(image.json.id)).payload.message.message_links).toEqual([{ type: 'image', url: 'https://b.example/cat.gif' }]);
    });

    it('stores the message as the user\'s: history shows it from a User object, with mentions and links', async () => {
      const sent = await post(`room/${roomId}/message`, { message: 'stored @ada https://example.org/x' }, bob);
      const res = await get(`room/${roomId}/history/${sent.json.id}`);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        message: {
          id: sent.json.id, date: sent.json.timestamp, from: userObject(bobId, 'Bob Builder', 'bob'), message: 'stored @ada https://example.org/x',
          mentions: [userObject(adaId, 'Ada Lovelace', 'ada')], message_links: [{ type: 'link', url: 'https://example.org/x' }], type: 'message',
        },
      });
      const v1History = await v1(stack.baseUrl, 'GET', 'rooms/history', { auth_token: s.v1Admin, room_id: roomId, date: 'recent' });
      expect(v1History.json.messages.at(-1)).toEqual({ date: expect.any(String), from: { name: 'Bob Builder', user_id: bobId }, message: 'stored @ada https://example.org/x' });
    });

    it('ignores unknown fields and answers 400 naming the field otherwise', async () => {
      expect((await post(`room/${roomId}/message`, { message: 'extra', token: 'x', color: 'red' }, ada)).status).toBe(201);
      for (const [body, pattern] of [
        [{}, /^message: is required/],
        [{ message: '' }, /^message: must not be empty/],
        [{ message: '   ' }, /^message: must not be blank/],
        [{ message: 'x'.repeat(10_001) }, /^message: must be at most 10,000 characters/],
        [{ message: 42 }, /^message: must be text/],
      ] as const) {
        const res = await post(`room/${roomId}/message`, body, ada);
        expect(errorOf(res)).toEqual({ status: 400, message: expect.stringMatching(pattern) });
      }
      expect((await post(`room/${roomId}/message`, { message: 'x'.repeat(10_000) }, ada)).status).toBe(201);
    });

    it('answers 401 without a valid token and 403 without the scope or without a user', async () => {
      expect((await v2(stack.baseUrl, 'POST', `room/${roomId}/message`, { body: { message: 'x' } })).status).toBe(401);
      expect((await post(`room/${roomId}/message`, { message: 'x' }, 'nope'.repeat(10))).status).toBe(401);
      const viewer = await s.personalToken(adaId, ['view_messages', 'send_notification']);
      const refused = errorOf(await post(`room/${roomId}/message`, { message: 'x' }, viewer));
      expect(refused).toEqual({ status: 403, message: expect.stringContaining('send_message') });
      // A room token has no user (and no send_message scope).
      const roomToken = await stack.createToken('room', 'Room Bot', { room: String(roomId) });
      expect(errorOf(await post(`room/${roomId}/message`, { message: 'x' }, roomToken)).status).toBe(403);
    });

    it('answers 404 for an unknown room, by id or name', async () => {
      expect(errorOf(await post('room/999999/message', { message: 'x' }, ada))).toEqual({ status: 404, message: 'Room 999999 not found' });
      expect(errorOf(await post('room/No Such Room/message', { message: 'x' }, ada))).toEqual({ status: 404, message: 'Room No Such Room not found' });
    });

    it('lets only members (and group admins) send to a private room', async () => {
      expect(errorOf(await post(`room/${secretId}/message`, { message: 'let me in' }, bob))).toEqual({ status: 404, message: `Room ${secretId} not found` });
      expect((await post(`room/${secretId}/message`, { message: 'owner here' }, ada)).status).toBe(201);
      expect((await post(`room/${secretId}/message`, { message: 'admin here' })).status).toBe(201);
    });

    it('answers 400 for an archived room', async () => {
      const archived = await createRoom('Archived Messages', s.adminId);
      await db.query('UPDATE rooms SET is_archived = true WHERE id = $1', [archived]);
      const res = await post(`room/${archived}/message`, { message: 'anyone?' }, ada);
      expect(errorOf(res)).toEqual({ status: 400, message: expect.stringMatching(/archived/) });
      expect(errorOf(await post(`room/${archived}/notification`, { message: 'anyone?' })).status).toBe(400);
    });
  });

  describe('POST /v2/room/{room}/notification', () => {
    it('answers 204 and publishes room_notification with the Notification message object of the specification', async () => {
      const res = await post(`room/${roomId}/notification`, { message: 'Build <b>42</b> passed' }, ada);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const { payload } = await notificationEvent('Build <b>42</b> passed');
      // actorUserId: the user whose token sent it (the webhook JWT's subject; not part of the item).
      expect(Object.keys(payload).sort()).toEqual(['actorUserId', 'message', 'notify', 'room']);
      expect(payload.actorUserId).toBe(adaId);
      expect(payload.notify).toBe(false);
      expect(Object.keys(payload.room).sort()).toEqual(ROOM_KEYS);
      expect(payload.room.id).toBe(roomId);
      // Notification message: color (default yellow), date, from (string), id (string), mentions,
      // message, message_format (default html), type.
      const { message } = payload;
      expect(Object.keys(message).sort()).toEqual(['color', 'date', 'from', 'id', 'mentions', 'message', 'message_format', 'type']);
      expect(message.color).toBe('yellow');
      expect(message.date).toMatch(ISO_UTC);
      // A personal token without `from`: the user's name.
      expect(message.from).toBe('Ada Lovelace');
      expect(message.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(message.mentions).toEqual([]);
      expect(message.message).toBe('Build <b>42</b> passed');
      expect(message.message_format).toBe('html');
      expect(message.type).toBe('notification');
    });

    it('keeps from, color, notify and format as given; resolves random and text mentions; sanitizes html', async () => {
      expect((await post(`room/${roomId}/notification`, { message: 'deploy @bob done', from: 'Deploy Bot', color: 'green', notify: true, message_format: 'text' })).status).toBe(204);
      const { payload } = await notificationEvent('deploy @bob done');
      expect(payload.notify).toBe(true);
      expect(payload.message).toMatchObject({ from: 'Deploy Bot', color: 'green', message_format: 'text', mentions: [userObject(bobId, 'Bob Builder', 'bob')] });

      expect((await post(`room/${roomId}/notification`, { message: 'random colour', color: 'random' })).status).toBe(204);
      expect(NOTIFICATION_COLORS).toContain((await notificationEvent('random colour')).payload.message.color);

      expect((await post(`room/${roomId}/notification`, { message: 'safe<script>alert(1)</script>' })).status).toBe(204);
      expect((await notificationEvent('safe')).payload.message.message).toBe('safe');
    });

    it('answers 204 for a room token on its own room (from: its label), 403 on another room', async () => {
      const roomToken = await stack.createToken('room', 'Room Bot', { room: String(roomId) });
      expect((await post(`room/${roomId}/notification`, { message: 'from the room token' }, roomToken)).status).toBe(204);
      expect((await notificationEvent('from the room token')).payload.message.from).toBe('Room Bot');
      const other = await createRoom('Other Room', s.adminId);
      const refused = errorOf(await post(`room/${other}/notification`, { message: 'elsewhere' }, roomToken));
      expect(refused).toEqual({ status: 403, message: 'This room token may only be used for its own room.' });
    });

    it('accepts cards as clients send them (url2x, a string icon) and shows them in history with attach_to', async () => {
      const parent = await post(`room/${roomId}/message`, { message: 'parent message' }, ada);
      const card = {
        style: 'image', id: 'card-1', title: 'Screenshot', format: 'medium', unknown: true,
        thumbnail: { url: 'https://img.example/t.png', url2x: 'https://img.example/t2.png', width: 10, height: 20 },
        attributes: [{ label: 'State', value: { label: 'ok', icon: 'https://img.example/i.png', style: 'lozenge-success' } }],
      };
      const res = await post(`room/${roomId}/notification`, { message: 'with a card', card, attach_to: parent.json.id, mystery: 1 });
      expect(res.status).toBe(204);
      const event = await notificationEvent('with a card');
      const item = (await get(`room/${roomId}/history/${event.payload.message.id}`)).json.message;
      expect(item).toMatchObject({ id: event.payload.message.id, from: 'Group Admin', type: 'notification', attach_to: parent.json.id, color: 'yellow', message_format: 'html' });
      expect(typeof item.card).toBe('string');
      expect(JSON.parse(item.card)).toEqual({
        style: 'image', id: 'card-1', title: 'Screenshot', format: 'medium',
        thumbnail: { url: 'https://img.example/t.png', 'url@2x': 'https://img.example/t2.png', width: 10, height: 20 },
        attributes: [{ label: 'State', value: { label: 'ok', icon: { url: 'https://img.example/i.png' }, style: 'lozenge-success' } }],
      });
    });

    it('answers 400 naming the field, card paths included', async () => {
      const card = { style: 'image', id: 'c', title: 't', thumbnail: { url: 'https://img.example/t.png' } };
      for (const [body, pattern] of [
        [{}, /^message: is required/],
        [{ message: '' }, /^message: must not be empty/],
        [{ message: 'x'.repeat(10_001) }, /^message: must be at most 10,000 characters/],
        [{ message: 'm', color: 'blue' }, /^color: must be one of/],
        [{ message: 'm', notify: 'perhaps' }, /^notify: /],
        [{ message: 'm', message_format: 'markdown' }, /^message_format: /],
        [{ message: 'm', from: 'f'.repeat(65) }, /^from: must be at most 64 characters/],
        [{ message: 'm', card: { ...card, thumbnail: { url: 'not a url' } } }, /^card\.thumbnail\.url: must be an http\(s\) URL/],
        [{ message: 'm', card: { ...card, style: 'poster' } }, /^card\.style: must be one of/],
        [{ message: 'm', card: { style: 'link', title: 't' } }, /^card\.id: is required/],
        [{ message: 'm', attach_to: randomUUID() }, /^attach_to: must be the id of a message of room Messages Room/],
        [{ message: 'm', attach_to: 'not-an-id' }, /^attach_to: /],
        [{ message: '<script>only()</script>' }, /^message: /],
      ] as const) {
        const res = await post(`room/${roomId}/notification`, body);
        expect(errorOf(res)).toEqual({ status: 400, message: expect.stringMatching(pattern) });
      }
    });

    it('refuses attach_to naming a message of another room', async () => {
      const elsewhere = await post(`room/${secretId}/message`, { message: 'secret parent' }, ada);
      expect(errorOf(await post(`room/${roomId}/notification`, { message: 'm', attach_to: elsewhere.json.id })).message).toMatch(/^attach_to: /);
    });

    it('answers 401, 403 naming send_notification, and 404 for an unknown room', async () => {
      expect((await v2(stack.baseUrl, 'POST', `room/${roomId}/notification`, { body: { message: 'x' } })).status).toBe(401);
      const sender = await s.personalToken(adaId, ['send_message']);
      expect(errorOf(await post(`room/${roomId}/notification`, { message: 'x' }, sender))).toEqual({ status: 403, message: expect.stringContaining('send_notification') });
      expect(errorOf(await post('room/Ghost Room/notification', { message: 'x' }))).toEqual({ status: 404, message: 'Room Ghost Room not found' });
    });

    it('applies flood control per room: the 4th send of 3 allowed answers 429 with the X-FloodControl headers and Retry-After', async () => {
      await awayFromWindowEnd(3600);
      const flooded = await createRoom('Flooded Room', s.adminId);
      const sends = [
        () => post(`room/${flooded}/notification`, { message: 'one' }, s.token, floodGateway),
        () => post(`room/${flooded}/message`, { message: 'two' }, ada, floodGateway),
        () => post(`room/${flooded}/notification`, { message: 'three' }, s.token, floodGateway),
      ];
      for (const [i, send] of sends.entries()) {
        const res = await send();
        expect(res.status).toBe(i === 1 ? 201 : 204);
        expect(res.headers.get('x-floodcontrol-limit')).toBe('3');
        expect(res.headers.get('x-floodcontrol-remaining')).toBe(String(2 - i));
      }
      const res = await post(`room/${flooded}/notification`, { message: 'four' }, s.token, floodGateway);
      expect(res.status).toBe(429);
      expect(res.json.error).toMatchObject({ code: 429, type: 'Too Many Requests', message: expect.stringMatching(/^Flood control/) });
      expect(res.headers.get('x-floodcontrol-limit')).toBe('3');
      expect(res.headers.get('x-floodcontrol-remaining')).toBe('0');
      const reset = Number(res.headers.get('x-floodcontrol-reset'));
      expect(Number.isInteger(reset) && reset > Date.now() / 1000).toBe(true);
      expectRetryAfter(res, 3600, 'x-floodcontrol-reset');
      expect(res.headers.get('x-ratelimit-limit')).toBe('100000');
      // Another room is not affected, and reads are not flood-controlled.
      expect((await post(`room/${roomId}/notification`, { message: 'other room' }, s.token, floodGateway)).status).toBe(204);
      expect((await v2(floodGateway, 'GET', `room/${flooded}/history`, { token: s.token })).status).toBe(200);
    });

    it('counts only accepted sends: 40 refused ones leave the room\'s budget as it was, and the 4th accepted one is 429', async () => {
      const name = 'Deploys';
      await createRoom(name, adaId, 'private');
      const ops = await createRoom('Ops', s.adminId);
      const opsToken = await stack.createToken('room', 'Ops bot', { room: String(ops) });
      const path = (kind: string) => `room/${name}/${kind}`;
      const send = (kind: string, opts: Parameters<typeof v2>[3]) => v2(floodGateway, 'POST', path(kind), opts);
      const refusals: Array<[number, () => ReturnType<typeof v2>]> = [
        // Refused by the rooms service: another room's token, a non-member to a private room.
        [403, () => send('notification', { token: opsToken, tokenInQuery: true, body: { message: 'not your room' } })],
        [404, () => send('message', { token: bob, body: { message: 'not a member' } })],
        [404, () => send('notification', { token: bob, body: { message: 'not a member' } })],
        // Refused by the gateway: bodies it cannot read or that break a rule.
        [400, () => send('notification', { token: ada, body: { message: 'x', color: 'pink' } })],
        [400, () => send('message', { token: ada, body: { message: '' } })],
        [413, () => send('notification', { token: ada, body: { message: 'x'.repeat(300 * 1024) } })],
        [415, () => send('notification', { token: ada, body: 'message=x', headers: { 'content-type': 'text/plain' } })],
      ];
      for (let i = 0; i < 40; i++) {
        const [status, refused] = refusals[i % refusals.length];
        const res = await refused();
        expect(res.status).toBe(status);
        // A refused send shows the budget as it is, or nothing when it never reached flood control.
        expect(res.headers.get('x-floodcontrol-remaining') ?? '3').toBe('3');
      }
      const accepted = [
        () => send('notification', { token: ada, body: { message: 'one' } }),
        () => send('message', { token: ada, body: { message: 'two' } }),
        () => send('notification', { token: ada, body: { message: 'three' } }),
      ];
      for (const [i, ok] of accepted.entries()) {
        const res = await ok();
        expect(res.status).toBe(i === 1 ? 201 : 204);
        expect(res.headers.get('x-floodcontrol-remaining')).toBe(String(2 - i));
      }
      for (let i = 0; i < 2; i++) {
        const res = await send('notification', { token: ada, body: { message: 'four' } });
        expect(res.status).toBe(429);
        expect(res.headers.get('x-floodcontrol-remaining')).toBe('0');
      }
    });
  });

  describe('GET /v2/room/{room}/history', () => {
    let historyRoom: number;
    const HISTORY = 'History Room';
    const ids: string[] = [];
    const at = (i: number) => new Date(Date.UTC(2020, 0, 1, 10 + i));

    beforeAll(async () => {
      historyRoom = await createRoom(HISTORY, s.adminId);
      // m1..m6, an hour apart from 2020-01-01T11:00Z; m3 is Ada's message, the others notifications.
      for (let i = 1; i <= 6; i++) {
        const id = randomUUID();
        ids.push(id);
        await db.query(
          `INSERT INTO messages (id, room_id, type, from_label, user_id, body, message_format, color, notify, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, false, $9)`,
          i === 3 ? [id, historyRoom, 'message', null, adaId, 'm3', 'text', null, at(i)] : [id, historyRoom, 'notification', 'Importer', null, `m${i}`, 'html', 'red', at(i)],
        );
      }
    });

    const texts = (res: V1Response) => res.json.items.map((m: { message: string }) => m.message);

    it('answers the page oldest first by default (HipChat reverse=true), items as HipChat shaped them', async () => {
      const res = await get(`room/${historyRoom}/history`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.json).sort()).toEqual(['items', 'links', 'maxResults', 'startIndex']);
      expect(res.json).toMatchObject({ startIndex: 0, maxResults: 100, links: { self: `${BASE}/v2/room/${historyRoom}/history` } });
      expect(res.json.links).not.toHaveProperty('next');
      expect(texts(res)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']);
      expect(res.json.items[0]).toEqual({
        id: ids[0], date: '2020-01-01T11:00:00.000+00:00', from: 'Importer', message: 'm1', message_format: 'html', color: 'red', mentions: [], type: 'notification',
      });
      expect(res.json.items[2]).toEqual({ id: ids[2], date: '2020-01-01T13:00:00.000+00:00', from: userObject(adaId, 'Ada Lovelace', 'ada'), message: 'm3', mentions: [], type: 'message' });
    });

    it('answers newest first with reverse=false, and pages with start-index and max-results', async () => {
      const q = { reverse: 'false', 'max-results': 2 };
      const first = await get(`room/${HISTORY}/history`, q);
      expect(texts(first)).toEqual(['m6', 'm5']);
      expect(first.json.links.next).toBe(`${BASE}/v2/room/History%20Room/history?reverse=false&start-index=2&max-results=2`);
      expect(first.json.links).not.toHaveProperty('prev');
      const second = await get(`room/${HISTORY}/history`, { ...q, 'start-index': 2 });
      expect(texts(second)).toEqual(['m4', 'm3']);
      expect(second.json.links).toMatchObject({ prev: expect.stringContaining('start-index=0'), next: expect.stringContaining('start-index=4') });
      const last = await get(`room/${HISTORY}/history`, { ...q, 'start-index': 4 });
      expect(texts(last)).toEqual(['m2', 'm1']);
      expect(last.json.links).not.toHaveProperty('next');
      // reverse=true pages the same messages, each page oldest first.
      expect(texts(await get(`room/${historyRoom}/history`, { 'max-results': 2 }))).toEqual(['m5', 'm6']);
      expect(texts(await get(`room/${historyRoom}/history`, { 'max-results': 2, 'start-index': 6 }))).toEqual([]);
    });

    it('bounds by date (the latest) and end-date (the earliest), read in the timezone', async () => {
      expect(texts(await get(`room/${historyRoom}/history`, { date: '2020-01-01T14:00:00Z', reverse: false }))).toEqual(['m4', 'm3', 'm2', 'm1']);
      expect(texts(await get(`room/${historyRoom}/history`, { date: '2020-01-01T14:00:00Z', 'end-date': '2020-01-01T12:00:00Z' }))).toEqual(['m2', 'm3', 'm4']);
      // 13:30 in Paris is 12:30 UTC: m1 and m2 only; dates are answered in Paris time.
      const paris = await get(`room/${historyRoom}/history`, { date: '2020-01-01T13:30:00', timezone: 'Europe/Paris' });
      expect(texts(paris)).toEqual(['m1', 'm2']);
      expect(paris.json.items[0].date).toBe('2020-01-01T12:00:00.000+01:00');
      // A calendar date is the whole day.
      expect(texts(await get(`room/${historyRoom}/history`, { date: '2020-01-01' }))).toHaveLength(6);
      expect(texts(await get(`room/${historyRoom}/history`, { date: '2019-12-31' }))).toEqual([]);
      expect(texts(await get(`room/${historyRoom}/history`, { date: 'recent', 'end-date': '2020-01-01T15:00:00+00:00' }))).toEqual(['m5', 'm6']);
      // include_deleted is accepted and changes nothing (nothing is ever deleted).
      expect(texts(await get(`room/${historyRoom}/history`, { include_deleted: true }))).toHaveLength(6);
    });

    it('answers recent with the newest 75 messages at most; a date reaches further', async () => {
      const busy = await createRoom('Busy History', s.adminId);
      await db.query(
        `INSERT INTO messages (id, room_id, type, from_label, user_id, body, message_format, color, notify, created_at)
         SELECT gen_random_uuid(), $1, 'notification', 'Bulk', NULL, 'b' || i, 'html', 'yellow', false, now() - (100 - i) * interval '1 second'
           FROM generate_series(1, 80) AS i`, [busy]);
      const recent = await get(`room/${busy}/history`, { date: 'recent', reverse: false });
      expect(recent.json.items).toHaveLength(75);
      expect(recent.json.items[0].message).toBe('b80');
      expect(recent.json.items.at(-1).message).toBe('b6');
      expect(recent.json.links).not.toHaveProperty('next');
      const paged = await get(`room/${busy}/history`, { 'max-results': 50, 'start-index': 50 });
      expect(paged.json.items).toHaveLength(25);
      expect((await get(`room/${busy}/history`, { date: new Date(Date.now() + 60_000).toISOString() })).json.items).toHaveLength(80);
    });

    it('answers 400 naming the parameter, 404 for an unknown room, 403 without view_messages', async () => {
      for (const [query, pattern] of [
        [{ date: 'yesterday' }, /^date: must be "recent" or an ISO-8601 date/],
        [{ 'end-date': '2020-13-45' }, /^end-date: /],
        [{ timezone: 'Mars/Base' }, /^timezone: must be an IANA time zone/],
        [{ 'max-results': 1001 }, /^max-results: /],
        [{ reverse: 'sometimes' }, /^reverse: /],
      ] as const) {
        expect(errorOf(await get(`room/${historyRoom}/history`, query))).toEqual({ status: 400, message: expect.stringMatching(pattern) });
      }
      expect(errorOf(await get('room/Nowhere/history'))).toEqual({ status: 404, message: 'Room Nowhere not found' });
      const sender = await s.personalToken(adaId, ['send_message', 'view_group']);
      expect(errorOf(await get(`room/${historyRoom}/history`, {}, sender))).toEqual({ status: 403, message: expect.stringContaining('view_messages') });
      expect((await v2(stack.baseUrl, 'GET', `room/${historyRoom}/history`)).status).toBe(401);
    });

    it('lets only members and group admins read a private room', async () => {
      const refused = errorOf(await get(`room/${secretId}/history`, {}, bob));
      // As if it did not exist: the reference sent, never the room's name (room-access.ts, roomNotFound).
      expect(refused).toEqual({ status: 404, message: `Room ${secretId} not found` });
      expect((await get(`room/${secretId}/history/latest`, {}, bob)).status).toBe(404);
      const ownMessage = (await get(`room/${secretId}/history`, {}, ada));
      expect(ownMessage.status).toBe(200);
      expect((await get(`room/${secretId}/history/${ownMessage.json.items[0].id}`, {}, bob)).status).toBe(404);
      expect((await get(`room/${secretId}/history`)).status).toBe(200);
    });

    it('GET history/latest answers the newest max-results, oldest first, none before not-before', async () => {
      const res = await get(`room/${historyRoom}/history/latest`, { 'max-results': 3 });
      expect(res.status).toBe(200);
      expect(texts(res)).toEqual(['m4', 'm5', 'm6']);
      expect(res.json).toMatchObject({ startIndex: 0, maxResults: 3, links: { self: `${BASE}/v2/room/${historyRoom}/history/latest` } });
      expect(texts(await get(`room/${historyRoom}/history/latest`))).toEqual(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']);
      expect(texts(await get(`room/${historyRoom}/history/latest`, { 'not-before': ids[4] }))).toEqual(['m5', 'm6']);
      expect(errorOf(await get(`room/${historyRoom}/history/latest`, { 'not-before': randomUUID() }))).toEqual({ status: 400, message: expect.stringMatching(/^not-before: /) });
      expect(errorOf(await get(`room/${historyRoom}/history/latest`, { 'max-results': -1 })).status).toBe(400);
    });

    it('GET history/{id} answers {message}, or 404 Message <id> not found', async () => {
      const res = await get(`room/${historyRoom}/history/${ids[1]}`, { timezone: 'America/New_York' });
      expect(res.json).toEqual({
        message: { id: ids[1], date: '2020-01-01T07:00:00.000-05:00', from: 'Importer', message: 'm2', message_format: 'html', color: 'red', mentions: [], type: 'notification' },
      });
      const unknown = randomUUID();
      expect(errorOf(await get(`room/${historyRoom}/history/${unknown}`))).toEqual({ status: 404, message: `Message ${unknown} not found` });
      expect(errorOf(await get(`room/${historyRoom}/history/not-a-uuid`))).toEqual({ status: 404, message: 'Message not-a-uuid not found' });
      // A message of another room is not this room's.
      expect(errorOf(await get(`room/${roomId}/history/${ids[1]}`)).status).toBe(404);
      expect(errorOf(await get(`room/999999/history/${ids[1]}`))).toEqual({ status: 404, message: 'Room 999999 not found' });
    });
  });
});
