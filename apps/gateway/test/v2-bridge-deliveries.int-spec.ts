import { DataSource } from 'typeorm';
import { BridgeCommands } from '../../rooms/src/cli/bridge-commands';
import { DispatcherClient } from '../src/shared/dispatcher-client';
import { RoomsClient } from '../src/shared/rooms-client';
import { EventCapture, eventually, Stack, startStack, V1Response } from '../../../test/support/harness';
import { PlatformReceivers } from '../../../test/support/platform-receivers';
import { v2, V2CallOptions, v2Session, V2Session } from './v2-helpers';

const BASE = 'https://chat.example.test';
const CHANGED = 'webhook.registrations-changed.v1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const errorOf = (res: V1Response) => ({ status: res.status, message: res.json?.error?.message });

/**
 * What a webhook has besides its registration, under a bridge's own URL: the delivery log,
 * redeliver, recover, enable and the test post, with the bridge's access rule; and the
 * webhook routes and the bridge routes each refusing the other's ids.
 */
describe('v2 bridge deliveries, enable and test (real services)', () => {
  let stack: Stack;
  let capture: EventCapture;
  let receivers: PlatformReceivers;
  let db: DataSource;
  let s: V2Session;
  let n = 0;

  const call = (verb: string, path: string, opts: V2CallOptions = {}) => v2(stack.baseUrl, verb, path, { token: s.token, ...opts });
  const createRoom = async (): Promise<number> => {
    const res = await call('POST', 'room', { body: { name: `Bridge log ${n++}` } });
    if (res.status !== 201) throw new Error(`POST /v2/room answered ${res.status}: ${res.text}`);
    return res.json.id as number;
  };
  const bridgeOf = async (room: number, channel = `c${n++}`): Promise<number> => {
    const res = await call('POST', `room/${room}/bridge`, { body: { kind: 'mattermost', url: receivers.urlOf('mattermost', channel), events: ['room_message'] } });
    if (res.status !== 201) throw new Error(`POST bridge answered ${res.status}: ${res.text}`);
    return res.json.id as number;
  };
  const send = async (room: number, message: string) => expect((await call('POST', `room/${room}/message`, { body: { message } })).status).toBe(201);
  /** The bridge's deliveries once `count` have ended. */
  const ended = (room: number, id: number, count = 1) => eventually(async () => {
    const res = await call('GET', `room/${room}/bridge/${id}/delivery`);
    expect(res.status).toBe(200);
    const items = res.json.items as Array<{ id: string; status: string }>;
    expect(items.filter((d) => d.status === 'delivered' || d.status === 'failed')).toHaveLength(count);
    return res;
  }, 30_000);

  beforeAll(async () => {
    receivers = await new PlatformReceivers().start();
    const loopback = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' };
    stack = await startStack({
      gateway: { V2_RATE_LIMIT_MAX: '100000', PUBLIC_BASE_URL: BASE }, rooms: { PUBLIC_BASE_URL: BASE, ...loopback }, dispatcher: loopback,
    });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    db = stack.rooms!.get(DataSource);
    s = await v2Session(stack);
  }, 60_000);
  afterAll(async () => {
    await capture?.stop();
    await stack?.stop();
    await receivers?.stop();
  });

  it('lists a bridge\'s deliveries under its own URL, and shows one with the request\'s URL masked, its creator included', async () => {
    const room = await createRoom();
    const id = await bridgeOf(room, 'secret-channel-key');
    await send(room, 'to the log');
    const list = await ended(room, id);
    expect(list.headers.get('content-type')).toMatch(/^application\/json/);
    const [item] = list.json.items;
    expect(item).toEqual(expect.objectContaining({
      id: expect.stringMatching(UUID), event: 'room_message', status: expect.stringMatching(/^(delivered|failed)$/), attempts: 1,
      links: { self: `${BASE}/v2/room/${room}/bridge/${id}/delivery/${item.id}` },
    }));
    expect(list.json.links.self).toBe(`${BASE}/v2/room/${room}/bridge/${id}/delivery`);

    const one = await call('GET', `room/${room}/bridge/${id}/delivery/${item.id}`);
    expect(one.status).toBe(200);
    expect(one.json).toEqual(expect.objectContaining({ id: item.id, event: 'room_message', links: { self: item.links.self } }));
    expect(one.json.request.url).toBe(`${receivers.baseUrl}/mattermost/***`);
    expect(one.text).not.toContain('secret-channel-key');
    expect(one.json.attempts).toHaveLength(1);

    // The filters and the paging are the webhook log's.
    const filtered = await call('GET', `room/${room}/bridge/${id}/delivery`, { query: { status: 'cancelled' } });
    expect(filtered.status).toBe(200);
    expect(filtered.json.items).toEqual([]);
    expect(errorOf(await call('GET', `room/${room}/bridge/${id}/delivery`, { query: { status: 'lost' } })))
      .toEqual({ status: 400, message: 'status: must be one of pending, retrying, delivered, failed, cancelled' });
  });

  it('redelivers and recovers a bridge\'s deliveries (202), and refuses both while it is disabled, naming its enable URL', async () => {
    const room = await createRoom();
    const id = await bridgeOf(room);
    await send(room, 'once');
    const [item] = (await ended(room, id)).json.items;

    const again = await call('POST', `room/${room}/bridge/${id}/delivery/${item.id}/redeliver`);
    expect([again.status, again.json]).toEqual([202, {}]);
    await eventually(async () => {
      expect((await call('GET', `room/${room}/bridge/${id}/delivery/${item.id}`)).json.attempts).toHaveLength(2);
    }, 30_000);
    const recovered = await call('POST', `room/${room}/bridge/${id}/recover`, { body: { since: new Date(Date.now() - 3_600_000).toISOString() } });
    expect(recovered.status).toBe(202);
    expect(recovered.json).toEqual({ count: expect.any(Number) });
    expect(errorOf(await call('POST', `room/${room}/bridge/${id}/recover`, { body: {} }))).toEqual({ status: 400, message: 'since: is required' });

    await db.query(`UPDATE webhooks SET enabled = false, disabled_reason = 'no_service', disabled_at = now() WHERE id = $1`, [id]);
    expect(errorOf(await call('POST', `room/${room}/bridge/${id}/delivery/${item.id}/redeliver`))).toEqual({
      status: 400, message: `Bridge ${id} is disabled (no_service): enable it first (POST /v2/room/${room}/bridge/${id}/enable), then redeliver.`,
    });
    expect(errorOf(await call('POST', `room/${room}/bridge/${id}/recover`, { body: { since: '2026-01-01T00:00:00Z' } }))).toEqual({
      status: 400, message: `Bridge ${id} is disabled (no_service): enable it first (POST /v2/room/${room}/bridge/${id}/enable), then recover.`,
    });
  });

  it('enables a disabled bridge (204): its health reset, a registration change, an audit line', async () => {
    const room = await createRoom();
    const id = await bridgeOf(room);
    await db.query(`UPDATE webhooks SET enabled = false, disabled_reason = 'Unknown Webhook', disabled_at = now() WHERE id = $1`, [id]);
    await db.query(`INSERT INTO webhook_health (webhook_id, consecutive_failures, failing_since, last_error) VALUES ($1, 7, now(), 'HTTP 404')`, [id]);
    const seen = capture.waitFor(CHANGED, (e) => e.payload.roomId === room && JSON.stringify(e.payload.webhookIds) === JSON.stringify([id]));

    const res = await call('POST', `room/${room}/bridge/${id}/enable`);
    expect([res.status, res.text]).toEqual([204, '']);
    await seen;
    const bridge = (await call('GET', `room/${room}/bridge/${id}`)).json;
    expect(bridge).toMatchObject({ enabled: true, disabled_reason: null, health: { consecutive_failures: 0, failing_since: null } });

    const audit = await call('GET', 'audit', { query: { 'max-results': 1000 } });
    const lines = (audit.json.items as Array<{ action: string; target: { type: string; id: number }; details: unknown }>)
      .filter((l) => l.target.type === 'bridge' && l.target.id === id);
    expect(lines.map((l) => l.action)).toEqual(['bridge.enabled', 'bridge.created']);
    expect(lines[0].details).toEqual({ roomId: room, kind: 'mattermost', wasDisabledFor: 'Unknown Webhook' });

    // Enabling an enabled bridge: 204 again, no second line.
    expect((await call('POST', `room/${room}/bridge/${id}/enable`)).status).toBe(204);
    const after = await call('GET', 'audit', { query: { 'max-results': 1000 } });
    expect((after.json.items as Array<{ action: string; target: { id: number } }>).filter((l) => l.action === 'bridge.enabled' && l.target.id === id)).toHaveLength(1);
  });

  it('answers 404 for a webhook\'s id under a bridge\'s routes, and for a bridge\'s id under a webhook\'s', async () => {
    const room = await createRoom();
    const bridge = await bridgeOf(room);
    const hook = await call('POST', `room/${room}/webhook`, { body: { url: `${receivers.baseUrl}/hook`, event: 'room_message' } });
    expect(hook.status).toBe(201);
    const webhook = hook.json.id as number;
    const DELIVERY = '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b';
    for (const [verb, path, body] of [
      ['GET', 'delivery'], ['GET', `delivery/${DELIVERY}`], ['POST', `delivery/${DELIVERY}/redeliver`],
      ['POST', 'recover', { since: '2026-01-01T00:00:00Z' }], ['POST', 'enable'], ['POST', 'test'],
    ] as Array<[string, string, unknown?]>) {
      expect([verb, path, errorOf(await call(verb, `room/${room}/bridge/${webhook}/${path}`, { body }))])
        .toEqual([verb, path, { status: 404, message: `Bridge ${webhook} not found` }]);
      expect([verb, path, errorOf(await call(verb, `room/${room}/bridge/nope/${path}`, { body }))])
        .toEqual([verb, path, { status: 404, message: 'Bridge nope not found' }]);
      if (path === 'test') continue;
      expect([verb, path, errorOf(await call(verb, `room/${room}/webhook/${bridge}/${path}`, { body }))])
        .toEqual([verb, path, { status: 404, message: `Webhook ${bridge} not found` }]);
    }
    expect(errorOf(await call('GET', `room/${room}/bridge/${bridge}/delivery/nope`))).toEqual({ status: 404, message: 'Delivery nope not found' });
    // A delivery of the webhook is not one of the bridge's.
    await send(room, 'to both');
    const hookDelivery = await eventually(async () => {
      const log = await call('GET', `room/${room}/webhook/${webhook}/delivery`);
      expect(log.json.items?.[0]?.id).toEqual(expect.any(String));
      return log.json.items[0].id as string;
    }, 30_000);
    expect((await call('GET', `room/${room}/bridge/${bridge}/delivery/${hookDelivery}`)).status).toBe(404);
  });

  it('hides another user\'s bridge (404), and needs admin_room (403)', async () => {
    const room = await createRoom();
    const id = await bridgeOf(room);
    const other = await s.createUser(`Stranger ${n++}`);
    const token = await s.personalToken(other);
    for (const [verb, path] of [['GET', 'delivery'], ['POST', 'enable'], ['POST', 'test']]) {
      expect([path, errorOf(await v2(stack.baseUrl, verb, `room/${room}/bridge/${id}/${path}`, { token }))])
        .toEqual([path, { status: 404, message: `Bridge ${id} not found` }]);
    }
    const narrow = await s.personalToken(s.adminId, ['view_room', 'view_group']);
    const refused = await v2(stack.baseUrl, 'POST', `room/${room}/bridge/${id}/test`, { token: narrow });
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toMatch(/admin_room/);
  });

  it('is enabled and its log read by the operator\'s CLI through the services (the dispatchers\' log, once the rooms service found the bridge)', async () => {
    const room = await createRoom();
    const id = await bridgeOf(room);
    await send(room, 'for the CLI');
    const [item] = (await ended(room, id)).json.items;
    const rooms = stack.gateway!.get(RoomsClient);
    const dispatcher = stack.gateway!.get(DispatcherClient);
    const cli = new BridgeCommands({ served: async () => true, request: (c, p) => rooms.send(c, p) }, 'rooms', BASE,
      { queue: { served: async () => true, request: (c, p) => dispatcher.send(c, p) }, name: 'dispatcher' });
    expect((await cli.deliveries(String(room), id)).map((d) => d.id)).toEqual([item.id]);
    expect(await cli.deliveries(String(room), id, { status: 'cancelled' })).toEqual([]);
    await expect(cli.deliveries(String(room), id + 1000)).rejects.toThrow(`no bridge ${id + 1000} in room ${room}`);

    await db.query(`UPDATE webhooks SET enabled = false, disabled_reason = 'channel_is_archived', disabled_at = now() WHERE id = $1`, [id]);
    expect(await cli.enable(String(room), id)).toMatchObject({ id, enabled: true, disabledReason: null });
    const audit = await call('GET', 'audit', { query: { 'max-results': 1000 } });
    const line = (audit.json.items as Array<{ action: string; target: { id: number }; actor: { type: string } }>).find((l) => l.action === 'bridge.enabled' && l.target.id === id);
    expect(line?.actor.type).toBe('cli');
  });

  it('is in the OpenAPI document with who may call each route', async () => {
    const doc = (await (await fetch(`${stack.baseUrl}/docs/api/v2/openapi.json`)).json()) as { paths: Record<string, Record<string, { description?: string; 'x-access'?: unknown }>> };
    const base = '/v2/room/{room}/bridge/{id}';
    for (const [path, verb] of [
      ['/delivery', 'get'], ['/delivery/{delivery}', 'get'], ['/delivery/{delivery}/redeliver', 'post'], ['/recover', 'post'], ['/enable', 'post'], ['/test', 'post'],
    ]) {
      const op = doc.paths[`${base}${path}`]?.[verb];
      expect([path, op?.description]).toEqual([path, expect.stringMatching(/Who may/)]);
      expect(op['x-access']).toMatchObject({ may: { group_admin: 'yes', room_owner: 'yes', creator: 'own' } });
    }
    const answer = (doc.paths[`${base}/test`].post as unknown as { responses: Record<string, { content?: Record<string, { schema: { properties?: object } }> }> })
      .responses['200'].content?.['application/json'].schema;
    expect(Object.keys(answer?.properties ?? {}).sort()).toEqual(['body', 'duration_ms', 'outcome', 'status']);
  });
});

/** With no webhook dispatcher running: the test post is a change that may have been made (a post to the platform). */
describe('v2 bridge test when no webhook dispatcher answers', () => {
  let stack: Stack;
  let s: V2Session;

  beforeAll(async () => {
    stack = await startStack({ gateway: { COMMAND_TIMEOUT_MS: '400' }, rooms: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, dispatcher: false });
    s = await v2Session(stack);
  });
  afterAll(async () => stack?.stop());

  it('answers 504 for the test (it may have been posted), 503 for a read of the log, 404 without waiting for a bridge not found', async () => {
    const room = (await v2(stack.baseUrl, 'POST', 'room', { token: s.token, body: { name: 'No Dispatcher Bridge' } })).json.id as number;
    const made = await v2(stack.baseUrl, 'POST', `room/${room}/bridge`, { token: s.token, body: { kind: 'slack', url: 'http://127.0.0.1:9/slack/x' } });
    expect(made.status).toBe(201);
    const path = `room/${room}/bridge/${made.json.id}`;
    expect(errorOf(await v2(stack.baseUrl, 'POST', `${path}/test`, { token: s.token }))).toEqual({
      status: 504, message: 'The webhook dispatcher did not answer in time; the request may or may not have been applied. Check before trying again.',
    });
    expect(errorOf(await v2(stack.baseUrl, 'GET', `${path}/delivery`, { token: s.token })))
      .toEqual({ status: 503, message: 'The webhook dispatcher did not answer in time; try again shortly.' });
    const started = Date.now();
    expect(errorOf(await v2(stack.baseUrl, 'POST', `room/${room}/bridge/999999/test`, { token: s.token }))).toEqual({ status: 404, message: 'Bridge 999999 not found' });
    expect(Date.now() - started).toBeLessThan(400);
  });
});
