/**
 * The webhook delivery log end to end, as a user sees it with curl and the CLI: the three
 * built services as `npm start` runs them, a receiver that fails and then recovers, and the
 * log under the webhook's own URL (`/v2/room/{room}/webhook/{id}/delivery`). What the
 * receiver got (its `webhook-id` header, the body) is what the log shows.
 */
import { Answer, v2Call } from '../support/http';
import { cli, startTestSystem, TestSystem } from '../support/processes';
import { Hit, Receiver } from './support-webhooks';

const ADMIN_SCOPES = 'admin_group,admin_room,manage_rooms,send_message,send_notification,view_group,view_messages,view_room';
const READER_SCOPES = 'send_message,view_group,view_messages,view_room';
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const UNKNOWN = '00000000-0000-5000-8000-000000000000';

/** A v2 error body as the gateway's v2 filter answers it. */
const v2Error = (code: number, message: string | RegExp) => ({
  status: code,
  body: { error: { code, type: expect.any(String), message: typeof message === 'string' ? message : expect.stringMatching(message) } },
});

describe('the webhook delivery log across the built system', () => {
  let stack: TestSystem;
  let receiver: Receiver;
  let admin: string;
  let reader: string;
  let roomId: number;
  let otherRoomId: number;
  let webhook: { id: number; self: string };
  let otherWebhookId: number;
  let failing = true;
  const startedAt = new Date(Date.now() - 1_000).toISOString();

  const v2 = (token: string, verb: string, path: string, body?: unknown): Promise<Answer> => v2Call(stack.baseUrl, token, verb, path, body);
  const hits = (): Hit[] => receiver.to('/log/hook', 'POST');
  const log = (query = '') => v2(admin, 'GET', `/room/${roomId}/webhook/${webhook.id}/delivery${query}`);
  const say = async (message: string) => expect((await v2(admin, 'POST', `/room/${roomId}/message`, { message })).status).toBe(201);

  /** The CLI, as an operator runs it against the running system (`npm run --silent cli -- ...`). */
  const run = (...args: string[]) => {
    const r = cli(args, stack.env);
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  /** Makes a user and a personal token of theirs with these scopes, as the README says. */
  const userToken = async (v1Token: string, name: string, scopes: string) => {
    const email = `${name.toLowerCase()}-${Date.now()}@example.com`;
    const res = await fetch(`${stack.baseUrl}/v1/users/create`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ auth_token: v1Token, name, email, is_group_admin: '1' }),
    });
    expect(res.status).toBe(200);
    const made = run('token', 'create', '--type', 'personal', '--user', email, '--scopes', scopes);
    expect(made.status).toBe(0);
    return made.stdout.trim();
  };

  beforeAll(async () => {
    stack = await startTestSystem('e2e_log', { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.2/32', WEBHOOK_RETRY_SCHEDULE: '300ms,600ms' });
    receiver = await Receiver.start('127.0.0.2');
    const url = receiver.route('/log/hook', () => (failing
      ? { status: 500, headers: { 'content-type': 'text/plain', 'x-receiver': 'e2e' }, body: 'database down' }
      : { status: 204 }));
    const v1 = run('token', 'create', '--type', 'admin').stdout.trim();
    admin = await userToken(v1, 'Owner', ADMIN_SCOPES);
    reader = await userToken(v1, 'Reader', READER_SCOPES);
    roomId = (await v2(admin, 'POST', '/room', { name: 'Delivery Log Room' })).body.id;
    otherRoomId = (await v2(admin, 'POST', '/room', { name: 'Other Log Room' })).body.id;
    const created = await v2(admin, 'POST', `/room/${roomId}/webhook`, { url, event: 'room_message', authentication: 'jwt', name: 'Logged' });
    expect(created.status).toBe(201);
    webhook = { id: created.body.id, self: created.body.links.self };
    otherWebhookId = (await v2(admin, 'POST', `/room/${roomId}/webhook`, { url: receiver.route('/log/other', { status: 204 }), event: 'room_topic_change' })).body.id;

    await say('first, while the receiver is down');
    await say('second, while the receiver is down');
    // Three attempts each (300 ms, 600 ms apart), then failed.
    await receiver.waitFor('three attempts of both messages', () => hits().length >= 6 && hits(), 10_000);
    for (;;) {
      const page = await log('?status=failed');
      if (page.body.items?.length === 2) break;
      await pause(100);
    }
  }, 90_000);

  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
  }, 30_000);

  it('lists the deliveries newest first, failed, each with the webhook-id its receiver saw and its last attempt', async () => {
    const page = await log();
    expect(page.status).toBe(200);
    const ids = [...new Set(hits().map((h) => String(h.headers['webhook-id'])))];
    const secondId = hits().find((h) => h.json.item.message.message.startsWith('second'))!.headers['webhook-id'];
    expect(ids).toHaveLength(2);
    expect(page.body).toEqual({
      items: [expect.any(Object), expect.any(Object)],
      startIndex: 0,
      maxResults: 100,
      links: { self: `${stack.baseUrl}/v2/room/${roomId}/webhook/${webhook.id}/delivery` },
    });
    const [newest, oldest] = page.body.items;
    expect(newest.id).toBe(secondId);
    expect(ids.sort()).toEqual([newest.id, oldest.id].sort());
    expect(newest).toEqual({
      id: secondId, event: 'room_message', status: 'failed', created: expect.any(String), attempts: 3,
      last_attempt: { at: expect.any(String), status_code: 500, duration_ms: expect.any(Number) },
      links: { self: `${webhook.self}/delivery/${secondId}` },
    });
    expect(Date.parse(newest.created)).toBeGreaterThanOrEqual(Date.parse(oldest.created));
  });

  it('filters by status, event and since, and pages with start-index and max-results', async () => {
    expect((await log('?status=failed')).body.items).toHaveLength(2);
    expect((await log('?status=delivered')).body.items).toEqual([]);
    expect((await log('?event=room_message')).body.items).toHaveLength(2);
    expect((await log('?event=room_topic_change')).body.items).toEqual([]);
    expect((await log(`?since=${encodeURIComponent(startedAt)}`)).body.items).toHaveLength(2);
    expect((await log(`?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).body.items).toEqual([]);
    const first = await log('?max-results=1');
    expect(first.body.items).toHaveLength(1);
    // Next is placed by a cursor after the page's last item as well as by start-index (which it echoes).
    const next = new URL(first.body.links.next);
    expect(`${next.origin}${next.pathname}`).toBe(`${stack.baseUrl}/v2/room/${roomId}/webhook/${webhook.id}/delivery`);
    expect(Object.fromEntries(next.searchParams)).toEqual({ 'start-index': '1', 'max-results': '1', after: expect.stringMatching(/^[A-Za-z0-9_-]+$/) });
    const second: any = await fetch(first.body.links.next, { headers: { authorization: `Bearer ${admin}` } }).then((r) => r.json());
    expect(second.items).toHaveLength(1);
    expect(second.items[0].id).not.toBe(first.body.items[0].id);
    expect(second.startIndex).toBe(1);
    expect(second.links).toEqual({ self: expect.any(String), prev: expect.stringContaining('start-index=0') });
    expect(second.links.prev).not.toContain('after=');
  });

  it('shows one delivery: the request as sent (JWT and signature cut short), every attempt with the answer, no reply', async () => {
    const sent = hits().filter((h) => h.json.item.message.message.startsWith('first'));
    const id = String(sent[0].headers['webhook-id']);
    const got = await log(`/${id}`);
    expect(got.status).toBe(200);
    const last = sent[sent.length - 1];
    expect(got.body).toMatchObject({
      id, event: 'room_message', status: 'failed', links: { self: `${webhook.self}/delivery/${id}` },
      request: {
        // The query masked to everyone, the creator included: it carries the attempt's JWT.
        url: `${receiver.base}/log/hook?signed_request=***`,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': last.headers['content-length'],
          'User-Agent': last.headers['user-agent'],
          'webhook-id': id,
          'webhook-timestamp': last.headers['webhook-timestamp'],
          'webhook-signature': `${String(last.headers['webhook-signature']).slice(0, 11)}…`,
          Authorization: `${String(last.headers.authorization).slice(0, 12)}…`,
        },
        body: last.body,
      },
      reply: null,
    });
    expect(got.body.attempts).toEqual([1, 2, 3].map((attempt) => ({
      attempt, at: expect.any(String), status_code: 500, duration_ms: expect.any(Number), error: null,
      response_headers: expect.objectContaining({ 'content-type': 'text/plain', 'x-receiver': 'e2e' }), response_body: 'database down',
    })));
    expect(JSON.stringify(got.body)).not.toContain(String(last.headers.authorization).slice(4));
  });

  it("masks the webhook's URL and its deliveries' to a group admin who did not create it", async () => {
    const otherAdmin = await userToken(run('token', 'create', '--type', 'admin').stdout.trim(), 'Auditor', ADMIN_SCOPES);
    const id = String(hits()[0].headers['webhook-id']);
    const shown = await v2(otherAdmin, 'GET', `/room/${roomId}/webhook/${webhook.id}`);
    expect([shown.status, shown.body.url]).toEqual([200, `${receiver.base}/log/hook`]);
    const got = await v2(otherAdmin, 'GET', `/room/${roomId}/webhook/${webhook.id}/delivery/${id}`);
    expect([got.status, got.body.request.url]).toEqual([200, `${receiver.base}/log/hook?signed_request=***`]);
    // Its creator too: a delivery's page shows what was sent, not credentials to copy.
    expect((await log(`/${id}`)).body.request.url).toBe(`${receiver.base}/log/hook?signed_request=***`);
  });

  it('answers 404 for a delivery it does not know, or of another webhook, and for a webhook of another room', async () => {
    const id = String(hits()[0].headers['webhook-id']);
    expect(await log(`/${UNKNOWN}`)).toEqual(v2Error(404, `Delivery ${UNKNOWN} not found`));
    expect(await log('/not-a-delivery')).toEqual(v2Error(404, 'Delivery not-a-delivery not found'));
    expect(await v2(admin, 'GET', `/room/${roomId}/webhook/${otherWebhookId}/delivery/${id}`)).toEqual(v2Error(404, `Delivery ${id} not found`));
    expect(await v2(admin, 'POST', `/room/${roomId}/webhook/${otherWebhookId}/delivery/${id}/redeliver`)).toEqual(v2Error(404, `Delivery ${id} not found`));
    expect(await v2(admin, 'GET', `/room/${otherRoomId}/webhook/${webhook.id}/delivery`)).toEqual(v2Error(404, `Webhook ${webhook.id} not found`));
    expect(await v2(admin, 'POST', `/room/${otherRoomId}/webhook/${webhook.id}/recover`, { since: startedAt })).toEqual(v2Error(404, `Webhook ${webhook.id} not found`));
    expect(await v2(admin, 'GET', `/room/${roomId}/webhook/99999/delivery`)).toEqual(v2Error(404, 'Webhook 99999 not found'));
  });

  it('answers 403 to a token without admin_room, 401 without a token', async () => {
    expect(await v2(reader, 'GET', `/room/${roomId}/webhook/${webhook.id}/delivery`)).toEqual(v2Error(403, /admin_room/));
    expect(await v2(reader, 'POST', `/room/${roomId}/webhook/${webhook.id}/recover`, { since: startedAt })).toEqual(v2Error(403, /admin_room/));
    const anonymous = await fetch(`${stack.baseUrl}/v2/room/${roomId}/webhook/${webhook.id}/delivery`);
    expect(anonymous.status).toBe(401);
  });

  it('answers 400 naming the parameter for a bad filter, page or recover time', async () => {
    expect(await log('?status=lost')).toEqual(v2Error(400, 'status: must be one of pending, retrying, delivered, failed, cancelled'));
    expect(await log('?event=room_joined')).toEqual(v2Error(400, /^event: must be one of room_archived, /));
    expect(await log('?since=yesterday')).toEqual(v2Error(400, /^since: must be an ISO 8601 date and time with its offset/));
    expect(await log('?max-results=5000')).toEqual(v2Error(400, 'max-results: must be a whole number from 0 to 1000 (got "5000")'));
    expect(await log('?after=yesterday')).toEqual(v2Error(400, 'after: must be a cursor as the list\'s links.next gives it (got "yesterday")'));
    const recover = (body: unknown) => v2(admin, 'POST', `/room/${roomId}/webhook/${webhook.id}/recover`, body);
    expect(await recover({})).toEqual(v2Error(400, 'since: is required'));
    expect(await recover({ since: 'last week' })).toEqual(v2Error(400, /^since: must be an ISO 8601 date and time/));
    expect(await recover({ since: new Date(Date.now() + 3_600_000).toISOString() })).toEqual(v2Error(400, 'since: must not be in the future'));
  });

  it('redeliver: 202, exactly one more attempt with the same webhook-id, not retried when it fails', async () => {
    const id = String(hits()[0].headers['webhook-id']);
    const before = hits().length;
    expect(await v2(admin, 'POST', `/room/${roomId}/webhook/${webhook.id}/delivery/${id}/redeliver`)).toEqual({ status: 202, body: {} });
    await receiver.waitFor('the redelivery', () => hits().length > before && hits(), 5_000);
    // The schedule would have tried again after 300 ms.
    await pause(1_200);
    expect(hits().slice(before).map((h) => h.headers['webhook-id'])).toEqual([id]);
    expect(hits()[before].body).toBe(hits()[0].body);
    const shown = (await log(`/${id}`)).body;
    expect({ status: shown.status, attempts: shown.attempts.map((a: { attempt: number }) => a.attempt) }).toEqual({ status: 'failed', attempts: [1, 2, 3, 4] });
  });

  it('recover: 202 with the count; once the receiver is back, the failed deliveries arrive again, with their webhook-ids, and are delivered', async () => {
    failing = false;
    const failedIds = (await log('?status=failed')).body.items.map((d: { id: string }) => d.id).sort();
    const before = hits().length;
    expect(await v2(admin, 'POST', `/room/${roomId}/webhook/${webhook.id}/recover`, { since: startedAt })).toEqual({ status: 202, body: { count: 2 } });
    await receiver.waitFor('the two recovered deliveries', () => hits().length >= before + 2 && hits(), 5_000);
    expect(hits().slice(before).map((h) => String(h.headers['webhook-id'])).sort()).toEqual(failedIds);
    for (;;) {
      const delivered = (await log('?status=delivered')).body.items;
      if (delivered.length === 2) {
        expect(delivered.map((d: { id: string }) => d.id).sort()).toEqual(failedIds);
        expect(delivered[0].last_attempt).toEqual({ at: expect.any(String), status_code: 204, duration_ms: expect.any(Number) });
        break;
      }
      await pause(100);
    }
    // Nothing failed is left.
    expect(await v2(admin, 'POST', `/room/${roomId}/webhook/${webhook.id}/recover`, { since: startedAt })).toEqual({ status: 202, body: { count: 0 } });
  });

  it('the CLI shows the same log, and redelivers and recovers through the running dispatcher', async () => {
    const id = String(hits()[0].headers['webhook-id']);
    const table = run('webhook', 'deliveries', String(webhook.id), '--status', 'delivered', '--limit', '10');
    expect(table.status).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+EVENT\s+STATUS\s+ATTEMPTS\s+LAST\s+CREATED$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 3))).toEqual(expect.arrayContaining([[id, 'room_message', 'delivered']]));

    const shown = run('webhook', 'delivery', id);
    expect(shown.status).toBe(0);
    expect(shown.stdout).toContain(`webhook-id: ${id}`);
    expect(shown.stdout).toMatch(/attempt 5 {2}\S+ {2}HTTP 204/);

    const before = hits().length;
    const redelivered = run('webhook', 'redeliver', id);
    expect(redelivered).toEqual({ status: 0, stdout: `redelivery of ${id} queued as attempt 6\n`, stderr: '' });
    await receiver.waitFor('the CLI\'s redelivery', () => hits().length > before && hits(), 5_000);
    expect(hits()[before].headers['webhook-id']).toBe(id);

    const recovered = run('webhook', 'recover', String(webhook.id), '--since', '1h');
    expect(recovered.status).toBe(0);
    expect(recovered.stdout).toMatch(new RegExp(`^0 failed deliveries of webhook ${webhook.id} since \\S+ queued again\\n$`));

    expect(run('webhook', 'delivery', UNKNOWN)).toEqual({ status: 1, stdout: '', stderr: `cli: no delivery ${UNKNOWN}\n` });
    // A mistyped webhook id: not an empty log, but no such webhook (the rooms service says so).
    const noWebhook = `cli: no webhook 987654: none is registered with that id, and no deliveries of one are recorded (see cli webhook list)\n`;
    expect(run('webhook', 'deliveries', '987654')).toEqual({ status: 1, stdout: '', stderr: noWebhook });
    expect(run('webhook', 'recover', '987654', '--since', '1h')).toEqual({ status: 1, stdout: '', stderr: noWebhook });
    const unknownAction = run('webhook', 'frobnicate');
    expect(unknownAction.status).toBe(2);
    expect(unknownAction.stderr).toMatch(/^cli: unknown webhook action "frobnicate"\n/);
    const bad = run('webhook', 'recover', String(webhook.id), '--since', 'soon');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^cli: --since: must be an ISO 8601 time/);
    // Year 0 reached PostgreSQL and ended "cli: unexpected"; now refused before asking, naming the rule.
    expect(run('webhook', 'recover', String(webhook.id), '--since', '0000-01-01T00:00:00Z')).toEqual({
      status: 2, stdout: '', stderr: expect.stringMatching(/^cli: --since: must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z \(got "0000-01-01T00:00:00Z"\)\n/),
    });
  });

  it('documents the four operations in the OpenAPI document', async () => {
    const doc: any = await fetch(`${stack.baseUrl}/docs/api/v2/openapi.json`).then((r) => r.json());
    const base = '/v2/room/{room}/webhook/{id}';
    expect(Object.keys(doc.paths[`${base}/delivery`])).toEqual(['get']);
    expect(doc.paths[`${base}/delivery`].get.parameters.map((p: { name: string }) => p.name))
      .toEqual(expect.arrayContaining(['start-index', 'max-results', 'status', 'event', 'since', 'after']));
    expect(Object.keys(doc.paths[`${base}/delivery/{delivery}`])).toEqual(['get']);
    expect(Object.keys(doc.paths[`${base}/delivery/{delivery}/redeliver`].post.responses)).toContain('202');
    expect(doc.paths[`${base}/recover`].post.requestBody.content['application/json'].schema.required).toEqual(['since']);
  });
});
