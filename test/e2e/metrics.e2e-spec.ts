/**
 * Metrics and health end to end: the three built services as `npm start` runs them, each
 * on a METRICS_PORT of its own (0: any free one, read from its "metrics listening" log
 * line), every service reaching RabbitMQ through an OutageProxy the test can cut.
 *
 * A notification posted to a room with a webhook moves the gateway's request histogram
 * (labelled with the route template), the rooms service's command histogram and the
 * dispatcher's attempts and ended deliveries; no scrape carries the room's name or the
 * token, although both were in the request's URL. Each service's /health/ready answers 200
 * naming its checks; cut from the broker, each answers 503 naming rabbitmq, and 200 again
 * on its own once the broker is back.
 */
import { eventually, testInfra } from '../support/common';
import { OutageProxy } from '../support/outage-proxy';
import { cli, startTestSystem, TestSystem } from '../support/processes';
import { Receiver } from './support-webhooks';

const SERVICES = ['gateway', 'rooms', 'webhook-dispatcher'] as const;
type Service = (typeof SERVICES)[number];
const ROOM = 'MetricsSecretRoom';

/** The value of the sample `name{labels}` in a Prometheus text exposition (0 when absent). */
function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries([...(m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(m[3]);
  }
  return 0;
}

describe('metrics and health on every service', () => {
  let proxy: OutageProxy;
  let stack: TestSystem;
  let receiver: Receiver;
  const metricsUrl = {} as Record<Service, string>;

  const scrape = async (service: Service): Promise<string> => {
    const res = await fetch(`${metricsUrl[service]}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };
  const ready = async (base: string) => {
    const res = await fetch(`${base}/health/ready`);
    return { status: res.status, body: await res.json() };
  };

  beforeAll(async () => {
    proxy = await OutageProxy.start((({ hostname, port }) => ({ host: hostname, port: Number(port || 5672) }))(new URL(testInfra().amqpUrl)));
    stack = await startTestSystem('e2e_metrics', {
      AMQP_URL: proxy.rewrite(testInfra().amqpUrl), WEBHOOK_ALLOWED_NETWORKS: '127.0.0.2/32',
    });
    for (const service of SERVICES) {
      const line = await stack.launched.waitForLog((l) => l.service === service && l.msg === 'metrics listening');
      metricsUrl[service] = String(line.url);
    }
    receiver = await Receiver.start('127.0.0.2');
  }, 90_000);

  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
    await proxy?.close();
  }, 60_000);

  it('listens on a port of its own per service, apart from the public one', () => {
    const ports = SERVICES.map((s) => new URL(metricsUrl[s]).port);
    expect(new Set(ports).size).toBe(3);
    expect(ports).not.toContain(new URL(stack.baseUrl).port);
    for (const s of SERVICES) expect(new URL(metricsUrl[s]).hostname).toBe('127.0.0.1');
  });

  it('counts a notification at the gateway, in the rooms service and in the dispatcher, with no room name or token in any label', async () => {
    const admin = cli(['token', 'create', '--type', 'admin'], stack.env).stdout.trim();
    const form = (body: Record<string, string>) => ({ method: 'POST', body: new URLSearchParams({ auth_token: admin, ...body }) });
    expect((await fetch(`${stack.baseUrl}/v1/users/create`, form({ email: 'metrics@example.com', name: 'Metrics Lead' }))).status).toBe(200);
    expect((await fetch(`${stack.baseUrl}/v1/rooms/create`, form({ name: ROOM, owner_user_id: '1' }))).status).toBe(200);
    const token = cli(['token', 'create', '--type', 'personal', '--user', 'metrics@example.com'], stack.env).stdout.trim();
    const hook = receiver.route('/hook', { status: 204 });
    const made = await fetch(`${stack.baseUrl}/v2/room/${ROOM}/webhook?auth_token=${token}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url: hook, event: 'room_notification' }),
    });
    expect(made.status).toBe(201);

    const route = { http_request_method: 'POST', http_route: '/v2/room/:room/notification', http_response_status_code: '204', api: 'v2' };
    const command = { rpc_method: 'rooms.send-notification.v1', outcome: 'ok' };
    const delivered = { webhook_event: 'room_notification', outcome: 'delivered' };
    const attempts = { webhook_event: 'room_notification', result: 'success' };
    const before = {
      gateway: sampleOf(await scrape('gateway'), 'http_server_request_duration_seconds_count', route),
      rooms: sampleOf(await scrape('rooms'), 'rpc_server_call_duration_seconds_count', command),
      delivered: sampleOf(await scrape('webhook-dispatcher'), 'webhook_deliveries_total', delivered),
    };

    // The room's name in the path and the token in the query string: neither may reach a label.
    const sent = await fetch(`${stack.baseUrl}/v2/room/${ROOM}/notification?auth_token=${token}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ message: 'counted' }),
    });
    expect(sent.status).toBe(204);
    await eventually(() => expect(receiver.to('/hook')).toHaveLength(1), 15_000);

    const after = await eventually(async () => {
      const texts = { gateway: await scrape('gateway'), rooms: await scrape('rooms'), dispatcher: await scrape('webhook-dispatcher') };
      expect(sampleOf(texts.gateway, 'http_server_request_duration_seconds_count', route)).toBe(before.gateway + 1);
      expect(sampleOf(texts.rooms, 'rpc_server_call_duration_seconds_count', command)).toBeGreaterThanOrEqual(before.rooms + 1);
      expect(sampleOf(texts.dispatcher, 'webhook_deliveries_total', delivered)).toBe(before.delivered + 1);
      return texts;
    }, 10_000);

    expect(sampleOf(after.dispatcher, 'webhook_delivery_attempt_duration_seconds_count', attempts)).toBeGreaterThanOrEqual(1);
    expect(sampleOf(after.dispatcher, 'messaging_client_consumed_messages_total', { outcome: 'ack' })).toBeGreaterThanOrEqual(1);
    for (const status of ['pending', 'retrying']) expect(after.dispatcher).toMatch(new RegExp(`^webhook_deliveries_unfinished\\{status="${status}"\\} \\d+$`, 'm'));
    expect(after.dispatcher).toMatch(/^webhooks_disabled 0$/m);
    expect(after.rooms).toMatch(/^outbox_events \d+$/m);
    expect(after.rooms).toMatch(/^outbox_oldest_event_age_seconds [\d.e+-]+$/m);
    expect(after.gateway).toMatch(/^live_active_connections 0$/m);
    for (const text of Object.values(after)) {
      // prom-client's process and Node defaults.
      expect(text).toMatch(/^process_cpu_user_seconds_total /m);
      expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
      expect(text.toLowerCase()).not.toContain(ROOM.toLowerCase());
      expect(text).not.toContain(token);
      expect(text).not.toContain(admin);
    }
  }, 60_000);

  it('leaves live streams out of the request durations: a stream\'s lifetime is no request\'s latency', async () => {
    const token = cli(['token', 'create', '--type', 'personal', '--user', 'metrics@example.com'], stack.env).stdout.trim();
    // A Last-Event-ID the room never had: the stream opens (200), says why, and the gateway ends it.
    const stream = await fetch(`${stack.baseUrl}/v2/room/${ROOM}/events?auth_token=${token}`, { headers: { 'Last-Event-ID': '999999' } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(await stream.text()).toContain('last_event_id_unknown');
    // A request after it, whose count shows that the stream's end was seen by now.
    const route = { http_request_method: 'GET', http_route: '/v2/room/:room', http_response_status_code: '200', api: 'v2' };
    const before = sampleOf(await scrape('gateway'), 'http_server_request_duration_seconds_count', route);
    expect((await fetch(`${stack.baseUrl}/v2/room/${ROOM}?auth_token=${token}`)).status).toBe(200);
    const text = await eventually(async () => {
      const t = await scrape('gateway');
      expect(sampleOf(t, 'http_server_request_duration_seconds_count', route)).toBe(before + 1);
      return t;
    }, 10_000);
    expect(text).not.toContain('http_route="/v2/room/:room/events"');
    expect(text).toMatch(/^live_active_connections 0$/m);
  }, 30_000);

  it('answers /health/live, and /health/ready with the checks of what each service uses', async () => {
    const expected: Record<Service, Record<string, string>> = {
      gateway: { rabbitmq: 'up', redis: 'up' },
      rooms: { postgres: 'up', rabbitmq: 'up', migrations: 'done' },
      'webhook-dispatcher': { postgres: 'up', rabbitmq: 'up', migrations: 'done' },
    };
    for (const service of SERVICES) {
      const live = await fetch(`${metricsUrl[service]}/health/live`);
      expect({ service, status: live.status, body: await live.json() }).toEqual({ service, status: 200, body: { status: 'live' } });
      expect({ service, ...(await ready(metricsUrl[service])) }).toEqual({ service, status: 200, body: { status: 'ready', checks: expected[service] } });
    }
    // The gateway's public port answers them too, and keeps its /health.
    expect(await ready(stack.baseUrl)).toEqual({ status: 200, body: { status: 'ready', checks: expected.gateway } });
    expect((await fetch(`${stack.baseUrl}/health/live`)).status).toBe(200);
    expect(await (await fetch(`${stack.baseUrl}/health`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${metricsUrl.rooms}/nothing`)).status).toBe(404);
  });

  it('turns not ready, naming rabbitmq, while the broker is away, and ready again on its own once it is back', async () => {
    proxy.outage(8_000);
    for (const base of [...SERVICES.map((s) => metricsUrl[s]), stack.baseUrl]) {
      await eventually(async () => {
        const got = await ready(base);
        expect({ base, status: got.status, body: got.body }).toMatchObject({ base, status: 503, body: { status: 'not_ready', checks: { rabbitmq: 'down' } } });
      }, 6_000);
    }
    // Live all along: the process answers.
    for (const service of SERVICES) expect((await fetch(`${metricsUrl[service]}/health/live`)).status).toBe(200);
    await proxy.restored();
    for (const base of [...SERVICES.map((s) => metricsUrl[s]), stack.baseUrl]) {
      await eventually(async () => {
        const got = await ready(base);
        expect({ base, status: got.status, body: got.body }).toMatchObject({ base, status: 200, body: { status: 'ready', checks: { rabbitmq: 'up' } } });
      }, 15_000);
    }
  }, 60_000);
});
