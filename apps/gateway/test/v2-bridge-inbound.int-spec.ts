import { createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { awayFromWindowEnd, EventCapture, readResponse, Stack, startStack, V1Response } from '../../../test/support/harness';
import { expectRetryAfter } from './gateway-helpers';
import { v2, V2CallOptions, v2Session, V2Session } from './v2-helpers';

const BASE = 'https://chat.example.test';
const MESSAGE_SENT = 'room.message-sent.v2';
const INBOUND_URL = new RegExp(`^${BASE.replace(/\./g, '\\.')}/v2/bridge/inbound/([A-Za-z0-9_-]{43})$`);
// Teams shows its security token in base64; the HMAC key is its decoded bytes.
const FLOOD_MAX = 5;
const TEAMS_SECRET = Buffer.from('a Teams security token of 32 b.', 'utf8').toString('base64');

const errorOf = (res: V1Response) => ({ status: res.status, body: res.json });
const errorBody = (code: number, type: string, message: string | RegExp) =>
  ({ status: code, body: { error: { code, type, message: typeof message === 'string' ? message : expect.stringMatching(message) } } });

describe('v2 bridges: what a bridged channel\'s people write comes into the room (real services)', () => {
  let stack: Stack;
  let capture: EventCapture;
  let db: DataSource;
  let s: V2Session;
  let n = 0;

  const call = (verb: string, path: string, opts: V2CallOptions = {}) => v2(stack.baseUrl, verb, path, { token: s.token, ...opts });
  const createRoom = async (): Promise<number> => {
    const res = await call('POST', 'room', { body: { name: `Inbound ${n++}` } });
    if (res.status !== 201) throw new Error(`POST /v2/room answered ${res.status}: ${res.text}`);
    return res.json.id as number;
  };
  const bridge = async (room: number, body: Record<string, unknown>): Promise<{ id: number; key: string }> => {
    const res = await call('POST', `room/${room}/bridge`, { body });
    if (res.status !== 201) throw new Error(`POST bridge answered ${res.status}: ${res.text}`);
    return { id: res.json.id as number, key: INBOUND_URL.exec(res.json.inbound.url)![1] };
  };
  /** A post to the inbound URL as the platform makes it: no token of ours, the body's bytes as given. */
  const inbound = async (key: string, contentType: string, body: string, headers: Record<string, string> = {}) =>
    readResponse(await fetch(`${stack.baseUrl}/v2/bridge/inbound/${key}`, { method: 'POST', headers: { 'content-type': contentType, ...headers }, body }));
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const history = async (room: number) => {
    const res = await call('GET', `room/${room}/history/latest`, { query: { 'max-results': 100 } });
    expect(res.status).toBe(200);
    return res.json.items as Array<{ from: unknown; message: string; type: string; id: string }>;
  };
  const rowsOf = async (room: number): Promise<number> => (await db.query('SELECT count(*)::int AS n FROM messages WHERE room_id = $1', [room]))[0].n;
  const teamsSignature = (body: string, secret = TEAMS_SECRET) => `HMAC ${createHmac('sha256', Buffer.from(secret, 'base64')).update(Buffer.from(body, 'utf8')).digest('base64')}`;

  beforeAll(async () => {
    // A small flood budget, so that a bridge reaches it (each bridge has its own).
    stack = await startStack({ gateway: { V2_RATE_LIMIT_MAX: '100000', PUBLIC_BASE_URL: BASE, FLOOD_CONTROL_MAX: String(FLOOD_MAX), FLOOD_CONTROL_WINDOW_SECONDS: '3600' }, rooms: { PUBLIC_BASE_URL: BASE } });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    db = stack.rooms!.get(DataSource);
    s = await v2Session(stack);
  });
  afterAll(async () => {
    await capture?.stop();
    await stack?.stop();
  });

  it('posts a Mattermost user\'s message (form, with the token): 200 {}, a room_message from "Grace Hopper (Mattermost)" that carries its bridge', async () => {
    const room = await createRoom();
    const { id, key } = await bridge(room, { kind: 'mattermost', url: 'https://mm.example.com/hooks/xyz', inbound: { enabled: true, token: 'mm-token-1' } });
    const res = await inbound(key, 'application/x-www-form-urlencoded', form({
      token: 'mm-token-1', team_domain: 'eng', channel_name: 'town-square', user_id: 'u1', user_name: 'Grace Hopper', text: 'deploy @nobody now', trigger_word: '',
    }));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({});
    expect(res.headers.get('x-floodcontrol-limit')).toMatch(/^\d+$/);

    const event = await capture.waitFor(MESSAGE_SENT, (e) => e.payload.room.id === room);
    expect(event.payload.origin).toEqual({ bridgeId: id });
    expect(event.payload.message).toMatchObject({ from: 'Grace Hopper (Mattermost)', message: 'deploy @nobody now', type: 'message', mentions: [] });
    const items = await history(room);
    expect(items).toEqual([expect.objectContaining({ from: 'Grace Hopper (Mattermost)', message: 'deploy @nobody now', type: 'message', id: event.payload.message.id })]);
  });

  it('refuses a post without the token, or with a wrong one: 401, nothing stored', async () => {
    const room = await createRoom();
    const { key } = await bridge(room, { kind: 'mattermost', url: 'https://mm.example.com/hooks/xyz', inbound: { enabled: true, token: 'mm-token-2' } });
    expect(errorOf(await inbound(key, 'application/x-www-form-urlencoded', form({ user_name: 'x', text: 'no token' }))))
      .toEqual(errorBody(401, 'Unauthorized', /needs the platform's verification token/));
    const wrong = await inbound(key, 'application/x-www-form-urlencoded', form({ token: 'mm-token-3', user_name: 'x', text: 'wrong token' }));
    expect(errorOf(wrong)).toEqual(errorBody(401, 'Unauthorized', /not the bridge's inbound token/));
    expect(wrong.text).not.toContain('mm-token-2');
    expect(await rowsOf(room)).toBe(0);
    expect(capture.of(MESSAGE_SENT, (e) => e.payload.room.id === room)).toEqual([]);
  });

  it('posts a Rocket.Chat user\'s message (JSON) and ignores its bots\' and integrations\' posts (200, nothing stored)', async () => {
    const room = await createRoom();
    const { key } = await bridge(room, { kind: 'rocketchat', url: 'https://rc.example.com/hooks/abc', inbound: { enabled: true } });
    const post = (fields: Record<string, unknown>) => inbound(key, 'application/json', JSON.stringify({
      token: 'rc-sent-token', channel_name: 'general', user_id: 'r1', user_name: 'ada', message_id: 'm1', siteUrl: 'https://rc.example.com', alias: '', isEdited: false, ...fields,
    }));
    const bot = await post({ text: 'I am a bot', bot: { i: 'integration-1' } });
    expect(bot.status).toBe(200);
    expect(bot.json).toEqual({});
    const res = await post({ text: 'hello from Rocket.Chat', bot: false });
    expect(res.status).toBe(200);
    await capture.waitFor(MESSAGE_SENT, (e) => e.payload.room.id === room);
    expect((await history(room)).map((i) => [i.from, i.message])).toEqual([['ada (Rocket.Chat)', 'hello from Rocket.Chat']]);
  });

  it('posts a Teams user\'s message signed with HMAC over the body\'s bytes (the mention removed); a missing or wrong HMAC is 401', async () => {
    const room = await createRoom();
    const { id, key } = await bridge(room, { kind: 'teams', url: 'https://teams.example.com/hook', inbound: { enabled: true, hmac_secret: TEAMS_SECRET } });
    // Spaced as no JSON serializer of ours would: the signature is over these exact bytes.
    const body = `{ "type": "message", "id": "1", "text": "<at>HipChat</at> ship it",\n  "from": { "id": "29:abc", "name": "Grace Hopper" }, "conversation": { "id": "19:c" }, "channelData": { "teamsTeamId": "t" } }`;
    expect(errorOf(await inbound(key, 'application/json', body))).toEqual(errorBody(401, 'Unauthorized', /needs the Authorization header/));
    expect(errorOf(await inbound(key, 'application/json', body, { authorization: teamsSignature(body, Buffer.from('another secret').toString('base64')) })))
      .toEqual(errorBody(401, 'Unauthorized', /does not match/));
    expect(errorOf(await inbound(key, 'application/json', body.replace('ship it', 'ship it!'), { authorization: teamsSignature(body) })).status).toBe(401);
    expect(await rowsOf(room)).toBe(0);

    const res = await inbound(key, 'application/json; charset=utf-8', body, { authorization: teamsSignature(body) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({});
    const event = await capture.waitFor(MESSAGE_SENT, (e) => e.payload.room.id === room);
    expect(event.payload).toMatchObject({ origin: { bridgeId: id }, message: { from: 'Grace Hopper (Microsoft Teams)', message: 'ship it' } });
  });

  it('answers 404 with the same body for an unknown key, a bridge whose inbound is off, and a malformed key', async () => {
    const room = await createRoom();
    const made = await bridge(room, { kind: 'mattermost', url: 'https://mm.example.com/hooks/xyz', inbound: { enabled: true } });
    const off = await call('PUT', `room/${room}/bridge/${made.id}`, { body: { kind: 'mattermost', url: 'https://mm.example.com/hooks/xyz', inbound: { enabled: false } } });
    expect(off.status).toBe(200);
    const notFound = errorBody(404, 'Not Found', 'Not found');
    const post = (key: string) => inbound(key, 'application/x-www-form-urlencoded', form({ user_name: 'x', text: 'hi' }));
    expect(errorOf(await post(made.key))).toEqual(notFound);
    expect(errorOf(await post('A'.repeat(43)))).toEqual(notFound);
    expect(errorOf(await post('short'))).toEqual(notFound);

    // A bridge disabled (as the dispatcher disables one the platform gave up on) answers the same.
    const live = await bridge(room, { kind: 'mattermost', url: 'https://mm.example.com/hooks/xyz', inbound: { enabled: true } });
    expect((await post(live.key)).status).toBe(200);
    await db.query('UPDATE webhooks SET enabled = false WHERE id = $1', [live.id]);
    expect(errorOf(await post(live.key))).toEqual(notFound);
    expect(await rowsOf(room)).toBe(1);
  });

  it('counts each bridge\'s posts with the flood control\'s budget: refused ones are given back, then 429 past it', async () => {
    await awayFromWindowEnd(3600);
    const room = await createRoom();
    const { key } = await bridge(room, { kind: 'mattermost', url: 'https://mm.example.com/hooks/xyz', inbound: { enabled: true, token: 'mm-flood' } });
    const post = (token: string, i: number) => inbound(key, 'application/x-www-form-urlencoded', form({ token, user_name: 'grace', text: `message ${i}` }));
    for (let i = 0; i < FLOOD_MAX + 2; i++) expect((await post('wrong', i)).status).toBe(401);
    for (let i = 0; i < FLOOD_MAX; i++) {
      const res = await post('mm-flood', i);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-floodcontrol-remaining')).toBe(String(FLOOD_MAX - i - 1));
    }
    const past = await post('mm-flood', FLOOD_MAX);
    expect(errorOf(past)).toEqual(errorBody(429, 'Too Many Requests', /^Flood control: this bridge may post 5 messages per/));
    expectRetryAfter(past, 3600, 'x-floodcontrol-reset');
    expect(await rowsOf(room)).toBe(FLOOD_MAX);
    // Another bridge of the same room has its own budget.
    const other = await bridge(room, { kind: 'rocketchat', url: 'https://rc.example.com/hooks/abc', inbound: { enabled: true } });
    expect((await inbound(other.key, 'application/json', JSON.stringify({ user_name: 'ada', text: 'still here' }))).status).toBe(200);
  });

  it('applies the message rules: 10,001 characters is 400 naming text; a body neither form nor JSON is 415', async () => {
    const room = await createRoom();
    const { key } = await bridge(room, { kind: 'mattermost', url: 'https://mm.example.com/hooks/xyz', inbound: { enabled: true } });
    expect(errorOf(await inbound(key, 'application/x-www-form-urlencoded', form({ user_name: 'x', text: 'y'.repeat(10_001) }))))
      .toEqual(errorBody(400, 'Bad Request', 'text: must be at most 10,000 characters (got 10,001)'));
    expect(errorOf(await inbound(key, 'text/plain', 'hello')).status).toBe(415);
    expect(await rowsOf(room)).toBe(0);
    expect((await inbound(key, 'application/x-www-form-urlencoded', form({ user_name: 'x', text: 'y'.repeat(10_000) }))).status).toBe(200);
    expect(await rowsOf(room)).toBe(1);
  });

  it('ignores an echo: the text the room sent out through a bridge within the minute, come back round a ring of bridges', async () => {
    const room = await createRoom();
    const { key } = await bridge(room, { kind: 'mattermost', url: 'https://mm.example.com/hooks/xyz', inbound: { enabled: true } });
    const sent = await call('POST', `room/${room}/message`, { body: { message: 'round and round' } });
    expect(sent.status).toBe(201);
    // Another platform's bridge user posted it there; it comes back through this one.
    const echo = await inbound(key, 'application/x-www-form-urlencoded', form({ user_name: 'relay', text: 'round and round' }));
    expect(echo.status).toBe(200);
    const other = await inbound(key, 'application/x-www-form-urlencoded', form({ user_name: 'grace', text: 'something new' }));
    expect(other.status).toBe(200);
    await capture.waitFor(MESSAGE_SENT, (e) => e.payload.room.id === room && e.payload.message.message === 'something new');
    expect((await history(room)).map((i) => i.message)).toEqual(['round and round', 'something new']);
  });
});
