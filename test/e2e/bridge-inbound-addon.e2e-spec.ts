/**
 * The inbound path end to end: someone writes in a Mattermost channel, Mattermost's
 * outgoing webhook posts it to the room's bridge, a HipChat add-on written with a real
 * framework from npm (ac-koa-hipchat, test/e2e/addon/greeter.ts) answers it, and the answer
 * reaches the Mattermost channel through the same bridge's outbound side.
 *
 * The system is the three built services as `npm start` runs them. Mattermost's side is
 * played by two things: the POST below, made as Mattermost's outgoing webhooks make it
 * (https://developers.mattermost.com/integrate/webhooks/outgoing/: a form-encoded body with
 * `token`, `team_id`, `team_domain`, `channel_id`, `channel_name`, `timestamp`, `user_id`,
 * `user_name`, `post_id`, `text`, `trigger_word`, `file_ids`), and the incoming-webhook
 * stand-in of test/support/platform-receivers.ts
 * (https://developers.mattermost.com/integrate/webhooks/incoming/), which receives what the
 * bridge posts. The stand-in listens on 127.0.0.2 and the add-on on 127.0.0.1, the two
 * addresses the system may call over plain http (WEBHOOK_ALLOWED_NETWORKS).
 */
import { Client } from 'pg';
import { eventually, EventCapture } from '../support/harness';
import { Answer, v2Call } from '../support/http';
import { PlatformReceivers, ReceivedPost } from '../support/platform-receivers';
import { cli, startTestSystem, TestSystem } from '../support/processes';
import { GreeterAddon, startGreeter, WEBHOOK_PATH } from './addon/greeter';

const ADMIN_SCOPES = 'admin_group,admin_room,manage_rooms,send_message,send_notification,view_group,view_messages,view_room';
/** The add-on's name in its descriptor: who its replies are from, in the room and in Mattermost. */
const GREETER_NAME = 'Mattermost Greeter';
/** The verification token Mattermost shows when its outgoing webhook is made, given to the bridge. */
const MATTERMOST_TOKEN = 'zmigewsanbbsdf59xnmduzypjc';
const CHANNEL = 'town-square';
/**
 * Who writes in the channel, and how the room names her: the example. (A real
 * Mattermost sends the account's username in `user_name`, e.g. `grace.hopper`, which the
 * room would show as "grace.hopper (Mattermost)"; the outgoing webhook sends no display name.)
 */
const GRACE = 'Grace Hopper';
const GRACE_IN_ROOM = 'Grace Hopper (Mattermost)';
const GREETING = 'hello from the Mattermost side';
const REPLY = `Hello, ${GRACE_IN_ROOM}!`;
/**
 * How soon the platform must have its answer: the tightest limit among the platforms an
 * inbound URL serves (Teams: 5 s); Mattermost waits longer (its outgoing-integration timeout).
 */
const ANSWER_WITHIN_MS = 5_000;

/** A post as Mattermost's outgoing webhook makes it: form-encoded, the token among the fields. */
function mattermostOutgoing(fields: { token: string; text: string; user_name: string; trigger_word: string }): URLSearchParams {
  return new URLSearchParams({
    channel_id: 'hawos4dqtby53pd64o4a4cmeoo',
    channel_name: CHANNEL,
    team_domain: 'someteam',
    team_id: 'kwoknj9nwpypzgzy78wkw516qe',
    post_id: `axdygg1957njfe5pu38s${Date.now().toString(36)}`,
    timestamp: String(Date.now()),
    token: fields.token,
    trigger_word: fields.trigger_word,
    user_id: 'rnina9994bde8mua79zqcg5hmo',
    user_name: fields.user_name,
    text: fields.text,
    file_ids: '',
  });
}

async function postForm(url: string, body: URLSearchParams): Promise<{ answer: Answer; ms: number }> {
  const started = Date.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: the text, for the failure message
  }
  return { answer: { status: res.status, body: parsed }, ms: Date.now() - started };
}

/** The text a Mattermost post shows: its `text` and its attachments' (where the bridge puts a coloured message). */
const shownText = (post: ReceivedPost): string =>
  [post.body.text, ...(post.body.attachments ?? []).flatMap((a: any) => [a.pretext, a.title, a.text, a.fallback])]
    .filter((t): t is string => typeof t === 'string').join('\n');

describe('a Mattermost channel\'s message answered by a HipChat add-on (ac-koa-hipchat) through a bridge', () => {
  let stack: TestSystem;
  let platforms: PlatformReceivers;
  let greeter: GreeterAddon;
  let capture: EventCapture;
  let db: Client;
  let adminToken: string;
  let roomId: number;
  let bridgeId: number;
  let inboundUrl: string;

  const v2 = (verb: string, path: string, body?: unknown): Promise<Answer> => v2Call(stack.baseUrl, adminToken, verb, path, body);
  const history = async (): Promise<any[]> => {
    const res = await v2('GET', `/room/${roomId}/history`);
    expect(res.status).toBe(200);
    return res.body.items;
  };
  const mattermostPosts = () => platforms.postsTo('mattermost', CHANNEL);
  const deliveries = () => greeter.requests.filter((r) => r.method === 'POST' && r.path === WEBHOOK_PATH);

  beforeAll(async () => {
    stack = await startTestSystem('e2e_bridge_addon', { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32,127.0.0.2/32' });
    platforms = await new PlatformReceivers().start('127.0.0.2');
    capture = await EventCapture.start(stack.env.AMQP_URL, stack.env.BROKER_NAMESPACE, 'room.#');
    db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    const v1Token = cli(['token', 'create', '--type', 'admin'], stack.env).stdout.trim();
    const email = `bridge.addon-${Date.now()}@example.com`;
    const made = await fetch(`${stack.baseUrl}/v1/users/create`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ auth_token: v1Token, name: 'Bridge Admin', email, is_group_admin: '1' }),
    });
    expect(made.status).toBe(200);
    adminToken = cli(['token', 'create', '--type', 'personal', '--user', email, '--scopes', ADMIN_SCOPES], stack.env).stdout.trim();
    // `hello` as the first word: the channel's people write it as they would (a leading `/` is a slash command in Mattermost).
    greeter = await startGreeter({ key: 'greeter-bridged', name: GREETER_NAME, helloPattern: /^hello\b/i });
  }, 90_000);

  afterAll(async () => {
    await greeter?.stop();
    await platforms?.stop();
    await capture?.stop();
    await db?.end().catch(() => undefined);
    await stack?.stop();
  }, 30_000);

  it('sets up the room: the add-on installed from its descriptor, a Mattermost bridge with inbound and its token', async () => {
    const room = await v2('POST', '/room', { name: 'Bridged Greetings', privacy: 'public' });
    expect(room.status).toBe(201);
    roomId = room.body.id;

    const installed = await v2('POST', '/addons', { url: greeter.descriptorUrl, room: roomId });
    expect(installed).toMatchObject({ status: 201, body: { oauth_id: expect.any(String) } });
    await greeter.waitFor('the install callback', () => greeter.lifecycle.find((l) => l.event === 'install'));

    const bridge = await v2('POST', `/room/${roomId}/bridge`, {
      kind: 'mattermost', url: platforms.urlOf('mattermost', CHANNEL), name: `~${CHANNEL}`,
      inbound: { enabled: true, token: MATTERMOST_TOKEN },
    });
    expect(bridge).toMatchObject({ status: 201, body: { kind: 'mattermost', enabled: true, inbound: { enabled: true, url: expect.any(String) } } });
    bridgeId = bridge.body.id;
    inboundUrl = bridge.body.inbound.url;
    expect(inboundUrl).toMatch(new RegExp(`^${stack.baseUrl}/v2/bridge/inbound/[A-Za-z0-9_-]{20,100}$`));
    // The token is a secret: never shown back.
    expect(JSON.stringify(bridge.body)).not.toContain(MATTERMOST_TOKEN);
  }, 60_000);

  it('refuses a post with a wrong token (401) and stores nothing', async () => {
    expect(inboundUrl).toBeDefined();
    const forged = 'hello, this one is forged';
    const { answer } = await postForm(inboundUrl, mattermostOutgoing({ token: 'not-the-token', text: forged, user_name: 'Mallory', trigger_word: 'hello' }));
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(expect.objectContaining({ error: expect.anything() }));
    expect(JSON.stringify(answer.body)).not.toContain(MATTERMOST_TOKEN);
    // The 401 is the rooms service's answer to the command: had anything been stored, it would be by now.
    expect((await history()).map((m) => m.message)).not.toContain(forged);
    const { answer: tokenless } = await postForm(inboundUrl, (() => {
      const body = mattermostOutgoing({ token: '', text: forged, user_name: 'Mallory', trigger_word: 'hello' });
      body.delete('token');
      return body;
    })());
    expect(tokenless.status).toBe(401);
    expect((await history()).map((m) => m.message)).not.toContain(forged);
  });

  describe('Grace writes "hello ..." in the channel', () => {
    let posted: { answer: Answer; ms: number };

    beforeAll(async () => {
      expect(inboundUrl).toBeDefined();
      posted = await postForm(inboundUrl, mattermostOutgoing({ token: MATTERMOST_TOKEN, text: GREETING, user_name: GRACE, trigger_word: 'hello' }));
    });

    it('is answered 200 `{}` at once: the platform posts nothing itself', () => {
      expect(posted.answer).toEqual({ status: 200, body: {} });
      expect(posted.ms).toBeLessThan(ANSWER_WITHIN_MS);
    });

    it('is in the room\'s history as a message from "Grace Hopper (Mattermost)" (stored before the answer)', async () => {
      const items = await history();
      // A person's message, as HipChat's history shows one: `from` a string, no colour or format (those are a notification's).
      const item = items.find((m) => m.message === GREETING);
      expect(item).toMatchObject({ type: 'message', from: GRACE_IN_ROOM });
      expect(item).not.toHaveProperty('color');
    });

    it('reaches the add-on as a room_message webhook whose JWT the framework verified, and the framework runs its handler', async () => {
      const run = await greeter.waitFor('the hello handler', () => greeter.runs.find((r) => r.webhook === 'hello'));
      expect(run).toMatchObject({ content: GREETING, senderName: GRACE_IN_ROOM, roomId });
      const delivery = deliveries().find((d) => d.body?.item?.message?.message === GREETING);
      expect(delivery).toMatchObject({
        status: 200,
        body: { event: 'room_message', item: { room: { id: roomId }, message: { message: GREETING, from: GRACE_IN_ROOM, type: 'message' } } },
        responseBody: { message: REPLY, message_format: 'text' },
      });
      // One delivery, Grace's (the refused posts were never stored, so never delivered), and
      // its JWT read and accepted by the framework's verifier (issuer: the installation's oauth id).
      expect(deliveries().map((d) => d.body?.item?.message?.message)).toEqual([GREETING]);
      expect(greeter.jwtChecks).toEqual([expect.objectContaining({
        accepted: true, asFrameworkReadsIt: { ok: true }, issuer: delivery!.body.oauth_client_id, context: expect.objectContaining({ room_id: roomId }),
      })]);
    });

    it('puts the add-on\'s reply in the room\'s history, from the add-on', async () => {
      await capture.waitFor('room.notification-sent.v2', (e) => e.payload.room.id === roomId && e.payload.message.message === REPLY, 15_000);
      const items = await history();
      expect(items.find((m) => m.message === REPLY)).toMatchObject({ type: 'notification', from: GREETER_NAME });
      // Grace's message first, then the answer to it.
      const order = items.map((m) => m.message).filter((m) => m === GREETING || m === REPLY);
      expect(order).toEqual([GREETING, REPLY]);
    });

    it('posts the reply to the Mattermost channel as the add-on, and never sends Grace\'s own message back', async () => {
      const posts = await platforms.waitFor('mattermost', () => mattermostPosts().some((p) => shownText(p).includes(REPLY)));
      const reply = posts.find((p) => shownText(p).includes(REPLY))!;
      expect(reply).toMatchObject({ method: 'POST', path: `/mattermost/${CHANNEL}`, body: { username: GREETER_NAME } });
      // The bridge delivers the room's events in order (one lane): Grace's message, had it been
      // sent back, would have arrived before the reply to it.
      const channel = mattermostPosts();
      expect(channel.map(shownText).filter((t) => t.includes(GREETING))).toEqual([]);
      expect(channel.filter((p) => p.body.username === GRACE_IN_ROOM)).toEqual([]);
      // The delivery log agrees: the bridge was given the reply, not the message that came in by it.
      await eventually(async () => {
        const { rows } = await db.query(
          `SELECT event, status FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at`, [bridgeId],
        );
        expect(rows).toEqual([{ event: 'room_notification', status: 'delivered' }]);
      }, 5_000);
    }, 30_000);
  });
});
