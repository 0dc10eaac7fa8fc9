/**
 * A webhook's and a bridge's delivery statistics end to end, as the console's charts read
 * them: the three built services as `npm start` runs them, a receiver that answers one
 * message at once, fails another once and then takes it, and fails a third for good, and
 * `GET .../delivery-stats` under the webhook's and the bridge's own URLs counting them as
 * delivered, retried and failed in the hour (and the day) they were created.
 */
import { eventually } from '../support/common';
import { Answer, v2Call } from '../support/http';
import { cli, startTestSystem, TestSystem } from '../support/processes';
import { Hit, Receiver } from './support-webhooks';

const ADMIN_SCOPES = 'admin_group,admin_room,manage_rooms,send_message,send_notification,view_group,view_messages,view_room';
const READER_SCOPES = 'send_message,view_group,view_messages,view_room';
const HOUR = 3_600_000;

/** A v2 error body as the gateway's v2 filter answers it. */
const v2Error = (code: number, message: string | RegExp) => ({
  status: code,
  body: { error: { code, type: expect.any(String), message: typeof message === 'string' ? message : expect.stringMatching(message) } },
});

const floorHour = (iso: string) => new Date(Math.floor(Date.parse(iso) / HOUR) * HOUR).toISOString();
const floorDay = (iso: string) => new Date(Math.floor(Date.parse(iso) / (24 * HOUR)) * 24 * HOUR).toISOString();

interface Bucket { start: string; delivered: number; retried: number; failed: number; pending: number; p50_ms: number | null; p99_ms: number | null }

/**
 * How the receiver answers a message by its text: `ok` at once, `flaky` with a 500 the first
 * time and a 204 after, `down` with a 500 always (three attempts, then failed).
 */
function answerByText(): (hit: Hit) => { status: number; body?: string } {
  const seen = new Map<string, number>();
  return (hit) => {
    const kind = /stats-(ok|flaky|down)/.exec(hit.body)?.[1] ?? 'ok';
    const n = (seen.get(kind) ?? 0) + 1;
    seen.set(kind, n);
    if (kind === 'down' || (kind === 'flaky' && n === 1)) return { status: 500, body: 'receiver down' };
    return { status: kind === 'ok' || kind === 'flaky' ? 200 : 204, body: 'ok' };
  };
}

describe('delivery statistics across the built system (a webhook and a bridge)', () => {
  let stack: TestSystem;
  let receiver: Receiver;
  let admin: string;
  let reader: string;
  let roomId: number;
  let otherRoomId: number;
  let webhook: { id: number; self: string };
  let bridge: { id: number; self: string };

  const v2 = (token: string, verb: string, path: string, body?: unknown): Promise<Answer> => v2Call(stack.baseUrl, token, verb, path, body);

  /** Makes a user and a personal token of theirs with these scopes, as the README says. */
  const userToken = async (v1Token: string, name: string, scopes: string) => {
    const email = `${name.toLowerCase()}-${Date.now()}@example.com`;
    const res = await fetch(`${stack.baseUrl}/v1/users/create`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ auth_token: v1Token, name, email, is_group_admin: '1' }),
    });
    expect(res.status).toBe(200);
    const made = cli(['token', 'create', '--type', 'personal', '--user', email, '--scopes', scopes], stack.env);
    expect(made.status).toBe(0);
    return made.stdout.trim();
  };

  beforeAll(async () => {
    stack = await startTestSystem('e2e_stats', { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.2/32', WEBHOOK_RETRY_SCHEDULE: '300ms,600ms' });
    receiver = await Receiver.start('127.0.0.2');
    const hookUrl = receiver.route('/stats/hook', answerByText());
    const bridgeUrl = receiver.route('/stats/bridge/channel-key', answerByText());
    const v1 = cli(['token', 'create', '--type', 'admin'], stack.env).stdout.trim();
    admin = await userToken(v1, 'Owner', ADMIN_SCOPES);
    reader = await userToken(v1, 'Reader', READER_SCOPES);
    roomId = (await v2(admin, 'POST', '/room', { name: 'Stats Room' })).body.id;
    otherRoomId = (await v2(admin, 'POST', '/room', { name: 'Other Stats Room' })).body.id;
    const hook = await v2(admin, 'POST', `/room/${roomId}/webhook`, { url: hookUrl, event: 'room_message', name: 'Charted' });
    expect(hook.status).toBe(201);
    webhook = { id: hook.body.id, self: hook.body.links.self };
    const made = await v2(admin, 'POST', `/room/${roomId}/bridge`, { kind: 'mattermost', url: bridgeUrl, events: ['room_message'], name: 'Charted bridge' });
    expect(made.status).toBe(201);
    bridge = { id: made.body.id, self: made.body.links.self };

    // One at a time, each ended before the next (ok after 1 request, flaky after 2, down after 3):
    // a bridge's lane would otherwise post messages that piled up behind a retry as one post.
    const paths = ['/stats/hook', '/stats/bridge/channel-key'];
    for (const [text, total] of [['stats-ok', 1], ['stats-flaky', 3], ['stats-down', 6]] as const) {
      expect((await v2(admin, 'POST', `/room/${roomId}/message`, { message: text })).status).toBe(201);
      for (const path of paths) await receiver.waitFor(`${total} requests to ${path}`, () => receiver.to(path, 'POST').length >= total, 20_000);
    }
  }, 120_000);

  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
  }, 30_000);

  /** The owner's deliveries as the list shows them (their creation times place them in a bucket). */
  const createdTimes = async (owner: string) => {
    const page = await v2(admin, 'GET', `${owner}/delivery`);
    expect(page.status).toBe(200);
    return page.body.items.map((d: { created: string }) => d.created) as string[];
  };

  describe.each([
    ['webhook', () => `/room/${roomId}/webhook/${webhook.id}`, () => webhook.self],
    ['bridge', () => `/room/${roomId}/bridge/${bridge.id}`, () => bridge.self],
  ])('of a %s', (_kind, path, self) => {
    const stats = (query = '') => v2(admin, 'GET', `${path()}/delivery-stats${query}`);

    it('counts the last 24 hours per hour: one delivered, one retried, one failed, in the hour they were created, with latency', async () => {
      const got = await eventually(async () => {
        const answer = await stats();
        expect(answer.status).toBe(200);
        expect(answer.body.totals).toEqual({ delivered: 1, retried: 1, failed: 1, pending: 0 });
        return answer;
      }, 15_000);
      const body = got.body;
      expect(body).toMatchObject({ bucket: 'hour', links: { self: `${self()}/delivery-stats?since=${encodeURIComponent(body.since)}&bucket=hour` } });
      // From 24 hours ago floored to its hour to now: 25 hours, oldest first, each there.
      expect(body.buckets).toHaveLength(25);
      expect(body.since).toBe(body.buckets[0].start);
      expect(floorHour(body.until)).toBe(body.buckets[24].start);
      expect(Date.parse(body.until) - Date.parse(body.since)).toBeGreaterThanOrEqual(24 * HOUR);
      const starts = body.buckets.map((b: Bucket) => b.start);
      expect(starts).toEqual([...starts].sort());
      // Every delivery in the bucket of its creation; the others zeros, with no latency.
      const created = await createdTimes(path());
      expect(created).toHaveLength(3);
      const holding = new Set(created.map(floorHour));
      for (const b of body.buckets as Bucket[]) {
        if (holding.has(b.start)) continue;
        expect(b).toEqual({ start: b.start, delivered: 0, retried: 0, failed: 0, pending: 0, p50_ms: null, p99_ms: null });
      }
      const counted = (body.buckets as Bucket[]).filter((b) => holding.has(b.start));
      expect(counted.reduce((n, b) => n + b.delivered + b.retried + b.failed, 0)).toBe(3);
      // Nearly always all three in one hour (unless the suite ran across an hour's turn).
      if (counted.length === 1) expect(counted[0]).toMatchObject({ delivered: 1, retried: 1, failed: 1, pending: 0 });
      for (const b of counted) expect(b.p50_ms).toEqual(expect.any(Number));
      expect(body.latency_ms).toEqual({ p50: expect.any(Number), p99: expect.any(Number) });
      expect(body.latency_ms.p99).toBeGreaterThanOrEqual(body.latency_ms.p50);
    });

    it('counts the last 7 days per day', async () => {
      const since = new Date(Date.now() - 7 * 24 * HOUR + 60_000).toISOString();
      const got = await stats(`?since=${encodeURIComponent(since)}&bucket=day`);
      expect(got.status).toBe(200);
      expect(got.body).toMatchObject({ bucket: 'day', since: floorDay(since), totals: { delivered: 1, retried: 1, failed: 1, pending: 0 } });
      expect(got.body.buckets).toHaveLength(8);
      const today = (await createdTimes(path())).map(floorDay);
      const counted = (got.body.buckets as Bucket[]).filter((b) => today.includes(b.start));
      expect(counted.reduce((n, b) => n + b.delivered + b.retried + b.failed, 0)).toBe(3);
    });

    it('answers 400 naming since or bucket for a bad window', async () => {
      expect(await stats(`?since=${encodeURIComponent(new Date(Date.now() - 8 * 24 * HOUR).toISOString())}`))
        .toEqual(v2Error(400, 'since: must be at most 7 days ago'));
      expect(await stats(`?since=${encodeURIComponent(new Date(Date.now() + HOUR).toISOString())}`)).toEqual(v2Error(400, 'since: must not be in the future'));
      expect(await stats('?since=yesterday')).toEqual(v2Error(400, /^since: must be an ISO 8601 date and time/));
      expect(await stats('?bucket=week')).toEqual(v2Error(400, 'bucket: must be one of hour, day'));
    });

    it('answers 403 to a token without admin_room, 404 under another room', async () => {
      expect(await v2(reader, 'GET', `${path()}/delivery-stats`)).toEqual(v2Error(403, /admin_room/));
      const elsewhere = await v2(admin, 'GET', `${path().replace(`/room/${roomId}/`, `/room/${otherRoomId}/`)}/delivery-stats`);
      expect(elsewhere.status).toBe(404);
    });
  });

  it('shows a failed delivery\'s page: the request as sent, every attempt with the answer', async () => {
    const failed = (await v2(admin, 'GET', `/room/${roomId}/webhook/${webhook.id}/delivery?status=failed`)).body.items;
    expect(failed).toHaveLength(1);
    const page = await v2(admin, 'GET', `/room/${roomId}/webhook/${webhook.id}/delivery/${failed[0].id}`);
    expect(page.status).toBe(200);
    expect(page.body.request).toMatchObject({
      url: `${receiver.base}/stats/hook`,
      headers: expect.objectContaining({ 'webhook-id': failed[0].id, 'webhook-signature': expect.stringMatching(/^v1,.{8}…$/) }),
      body: expect.stringContaining('stats-down'),
    });
    expect(page.body.attempts).toEqual([1, 2, 3].map((attempt) => ({
      attempt, at: expect.any(String), status_code: 500, duration_ms: expect.any(Number), error: null,
      response_headers: expect.any(Object), response_body: 'receiver down',
    })));
  });

  it('documents both operations in the OpenAPI document, with their answer', async () => {
    const doc: any = await fetch(`${stack.baseUrl}/docs/api/v2/openapi.json`).then((r) => r.json());
    for (const owner of ['webhook', 'bridge']) {
      const op = doc.paths[`/v2/room/{room}/${owner}/{id}/delivery-stats`].get;
      expect(op.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['since', 'bucket']));
      const schema = op.responses['200'].content['application/json'].schema;
      expect(JSON.stringify(schema)).toContain('latency_ms');
    }
  });
});
