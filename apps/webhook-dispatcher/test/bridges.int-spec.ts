import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { AmqpBroker, createLogger, RpcClient, RpcCommandError } from '@app/common';
import { brokerNames, BridgeKind, CreateBridgeV1, CreateRoomV1, CreateUserV1, GetBridgeV1, GetDeliveryV1, RedeliverV1, SendMessageV1, SendNotificationV1, TestBridgeV1 } from '@app/contracts';
import { eventually, Stack, startStack } from '../../../test/support/harness';
import { PlatformReceivers } from '../../../test/support/platform-receivers';
import { OrderedDeliveries } from '../src/ordered/ordered-deliveries';
import { Registrations } from '../src/registrations/registrations';

const DISPATCHER_ENV = { WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' };

/** The texts a Slack channel shows, post by post (a post's own text, then its attachments'). */
/** The messages a Slack post shows: its text, and its attachments' (a run of one sender's same-coloured notifications is one attachment, a line each). */
const slackTexts = (body: any): string[] => [
  ...(body.text ? [body.text as string] : []),
  ...((body.attachments ?? []) as Array<{ text?: string; fallback?: string }>).flatMap((a) => (a.text ?? a.fallback ?? '').split('\n')),
];

describe('bridges (the dispatcher posts to local stand-ins of the platforms; real RabbitMQ, PostgreSQL, Redis)', () => {
  let stack: Stack;
  let platforms: PlatformReceivers;
  let broker: AmqpBroker;
  let rpc: RpcClient;
  let db: Client;
  let ownerId: number;

  const newRoom = async () => (await rpc.request(CreateRoomV1, {
    actor: { label: 't' }, name: `Bridged ${randomUUID().slice(0, 8)}`, owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false,
  })).room;

  const bridge = async (roomId: number, kind: BridgeKind, channel: string, extra: Record<string, unknown> = {}) => {
    const created = await rpc.request(CreateBridgeV1, {
      actor: { label: 'admin', userId: ownerId }, room: { id: roomId }, kind, url: platforms.urlOf(kind, channel), ...extra,
    });
    await eventually(() => expect(stack.dispatcher!.get(Registrations).get(created.bridge.id)).toBeDefined(), 3_000);
    return created.bridge;
  };

  const notify = (roomId: number, message: string, more: { format?: 'text' | 'html'; color?: 'yellow' | 'green' | 'red' | 'purple' | 'gray'; from?: string } = {}) =>
    rpc.request(SendNotificationV1, {
      actor: { label: 'ci' }, room: { id: roomId }, message, messageFormat: more.format ?? 'text', notify: false, color: more.color ?? 'yellow', from: more.from,
    });

  const onChannel = (kind: BridgeKind, channel: string) => platforms.postsTo(kind, channel);

  beforeAll(async () => {
    // Slack's documented limit, one post a second, with a burst of 2: beyond, 429 and Retry-After.
    platforms = await new PlatformReceivers({ limits: { slack: { perSecond: 1, burst: 2 }, discord: { perSecond: 2, burst: 2 } }, gone: ['/slack/archived'] }).start();
    stack = await startStack({ rooms: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, dispatcher: DISPATCHER_ENV });
    broker = await AmqpBroker.connect(stack.amqpUrl, brokerNames(stack.namespace), createLogger('test', 'silent'));
    rpc = await broker.createRpcClient(brokerNames(stack.namespace).roomsCommandQueue, 10_000);
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    ownerId = (await rpc.request(CreateUserV1, { email: 'bridges@example.com', name: 'Owner' })).user.id;
    await eventually(() => expect(stack.dispatcher!.get(OrderedDeliveries).leading).toBe(true), 5_000);
  });

  afterAll(async () => {
    await platforms?.stop();
    await broker?.close();
    await db?.end().catch(() => undefined);
    await stack?.stop();
  });

  it('posts a notification to Slack in its format (username, mrkdwn, the colour\'s attachment), through an ordered lane, recorded delivered', async () => {
    const room = await newRoom();
    const slack = await bridge(room.id, 'slack', 'first');
    const { rows: [row] } = await db.query('SELECT delivery FROM webhooks WHERE id = $1', [slack.id]);
    expect(row.delivery).toBe('ordered');

    await notify(room.id, 'Build <b>12</b> &amp; <a href="https://ci.example/12">log</a>', { format: 'html', color: 'green', from: 'CI' });
    await platforms.waitFor('slack', () => onChannel('slack', 'first').length >= 1);
    const [post] = onChannel('slack', 'first');
    expect(post.method).toBe('POST');
    expect(post.body).toMatchObject({ username: 'CI', attachments: [{ color: 'good', text: 'Build *12* &amp; <https://ci.example/12|log>' }] });

    await eventually(async () => {
      const { rows } = await db.query('SELECT status, attempts, lane_position IS NOT NULL AS laned FROM webhook_deliveries WHERE webhook_id = $1', [slack.id]);
      expect(rows).toEqual([{ status: 'delivered', attempts: 1, laned: true }]);
    }, 5_000);
  });

  it('keeps Slack\'s one post a second: a burst arrives as few posts, in order, nothing dropped, without a 429', async () => {
    const room = await newRoom();
    await bridge(room.id, 'slack', 'burst');
    const sent = Array.from({ length: 12 }, (_, i) => `burst ${i + 1}`);
    for (const text of sent) await notify(room.id, text);

    const posts = await eventually(() => {
      const got = onChannel('slack', 'burst');
      expect(got.flatMap((p) => slackTexts(p.body))).toEqual(sent);
      return got;
    }, 20_000);
    // Coalesced: far fewer posts than events, each at most one a second after the first two.
    expect(posts.length).toBeLessThan(sent.length);
    expect(platforms.throttled.slack ?? 0).toBe(0);
  });

  it('brings a 10,000-character message to Discord whole, as consecutive posts in order, waiting when its headers say the bucket is spent', async () => {
    const room = await newRoom();
    await bridge(room.id, 'discord', 'long');
    const lines = Array.from({ length: 200 }, (_, i) => `line ${String(i).padStart(3, '0')} ${'x'.repeat(40)}`);
    // A person's message: Discord's `content`, 2,000 characters a post, so five posts or more.
    await rpc.request(SendMessageV1, { actor: { label: 'Owner', userId: ownerId }, room: { id: room.id }, message: lines.join('\n') });
    const posts = await eventually(() => {
      const got = onChannel('discord', 'long');
      const text = got.map((p) => (p.body.embeds ?? []).map((e: { description?: string }) => e.description ?? '').join('') + (p.body.content ?? '')).join('\n');
      for (const line of [lines[0], lines[99], lines[199]]) expect(text).toContain(line);
      return got;
    }, 20_000);
    expect(posts.length).toBeGreaterThanOrEqual(5);
    // Two posts a second (burst 2) at the stand-in: the third waited for the bucket its headers reported spent.
    expect(posts[2].at - posts[0].at).toBeGreaterThanOrEqual(400);
    const joined = posts.map((p) => JSON.stringify(p.body)).join('');
    // Each line once: no part posted twice.
    for (const line of [lines[0], lines[50], lines[199]]) expect(joined.split(line).length).toBe(2);
    expect(platforms.throttled.discord ?? 0).toBe(0);
  });

  it('puts Matrix events with the bot\'s token and the delivery id as transaction id', async () => {
    const room = await newRoom();
    await bridge(room.id, 'matrix', 'ops', { matrix: { room_id: '!ops:example.org', access_token: 'syt_bot_S3cretT0ken' } });
    await notify(room.id, 'deployed', { from: 'CD' });
    await platforms.waitFor('matrix', () => onChannel('matrix', 'ops').length >= 1);
    const [post] = onChannel('matrix', 'ops');
    expect(post.method).toBe('PUT');
    expect(post.headers.authorization).toBe('Bearer syt_bot_S3cretT0ken');
    expect(post.path).toMatch(/^\/matrix-ops\/_matrix\/client\/v3\/rooms\/!ops%3Aexample.org\/send\/m\.room\.message\/[^/]+$/);
    expect(post.body).toMatchObject({ msgtype: 'm.notice' });
  });

  it('disables a bridge at once when its platform says it is gone, audits it and tells the room (through its other bridges)', async () => {
    const room = await newRoom();
    const archived = await bridge(room.id, 'slack', 'archived');
    await bridge(room.id, 'mattermost', 'watch');
    await notify(room.id, 'anyone there?');

    await eventually(async () => {
      const { bridge: seen } = await rpc.request(GetBridgeV1, { actor: { label: 'admin', userId: ownerId }, room: { id: room.id }, id: archived.id });
      expect(seen).toMatchObject({ enabled: false, disabledReason: 'Slack: no_service' });
    }, 10_000);
    const { rows } = await db.query(`SELECT action, details FROM audit_log WHERE target_id = $1`, [archived.id]);
    expect(rows).toContainEqual({ action: 'bridge.disabled', details: expect.objectContaining({ cause: 'platform', reason: 'Slack: no_service' }) });
    // The notice a disabled webhook gets, seen where the room is bridged.
    await platforms.waitFor('mattermost', (posts) => posts.some((p) => JSON.stringify(p.body).includes('has been disabled: Slack: no_service')));
    // Failed for good at its one attempt: no retry made.
    const { rows: deliveries } = await db.query('SELECT status, attempts FROM webhook_deliveries WHERE webhook_id = $1', [archived.id]);
    expect(deliveries).toContainEqual({ status: 'failed', attempts: 1 });
  });

  it('answers the bridge test with the platform\'s status and words, after posting "Bridge test from {room}" in its format', async () => {
    const room = await newRoom();
    const ok = await bridge(room.id, 'mattermost', 'tested');
    const gone = await bridge(room.id, 'slack', 'archived-too');
    const dispatcher = await broker.createRpcClient(brokerNames(stack.namespace).dispatcherCommandQueue, 10_000);

    expect(await dispatcher.request(TestBridgeV1, { bridgeId: ok.id, roomName: room.name })).toMatchObject({ status: 200, body: 'ok', outcome: 'delivered' });
    await platforms.waitFor('mattermost', () => onChannel('mattermost', 'tested').length >= 1);
    const [post] = onChannel('mattermost', 'tested');
    expect(JSON.stringify(post.body)).toContain(`Bridge test from ${room.name}`);

    // Shown, not acted on: the person testing reads the platform's reason.
    const refused = await dispatcher.request(TestBridgeV1, { bridgeId: gone.id, roomName: room.name });
    expect(refused).toMatchObject({ status: 404, body: 'no_service', outcome: 'never' });

    const missing = await dispatcher.request(TestBridgeV1, { bridgeId: 2_000_000_000, roomName: room.name }).catch((err) => err);
    expect(missing).toBeInstanceOf(RpcCommandError);
    expect((missing as RpcCommandError).error).toMatchObject({ code: 'not_found', field: 'bridge' });
  });

  it('shows a bridge\'s delivery in its log as posted (its URL masked), and a redeliver posts it again', async () => {
    const room = await newRoom();
    const hook = await bridge(room.id, 'mattermost', 'logged-K3yPart');
    await notify(room.id, 'logged once', { from: 'CI' });
    await platforms.waitFor('mattermost', () => onChannel('mattermost', 'logged-K3yPart').length === 1);
    const id = await eventually(async () => {
      const { rows } = await db.query(`SELECT id FROM webhook_deliveries WHERE webhook_id = $1 AND status = 'delivered'`, [hook.id]);
      expect(rows).toHaveLength(1);
      return rows[0].id as string;
    }, 5_000);
    const log = await broker.createRpcClient(brokerNames(stack.namespace).dispatcherCommandQueue, 10_000);
    const { delivery } = await log.request(GetDeliveryV1, { delivery: id, webhookId: hook.id });
    expect(delivery.request.url).toBe(`${platforms.baseUrl}/mattermost/***`);
    expect(JSON.parse(delivery.request.body)).toMatchObject({ username: 'CI', attachments: [{ text: 'logged once' }] });
    expect(JSON.stringify(delivery)).not.toContain('K3yPart');

    expect(await log.request(RedeliverV1, { delivery: id, webhookId: hook.id })).toEqual({ deliveryId: id, attempt: 2 });
    await platforms.waitFor('mattermost', () => onChannel('mattermost', 'logged-K3yPart').length === 2);
    expect(onChannel('mattermost', 'logged-K3yPart')[1].body).toEqual(onChannel('mattermost', 'logged-K3yPart')[0].body);
  });
});
