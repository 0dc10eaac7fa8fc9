/**
 * Generated bad input against every v2 operation of the built system (the mutators of
 * test/support/bad-input.ts over the descriptors of test/support/bad-input-v2.ts):
 * malformed JSON, wrong types, structured values, huge bodies, unknown fields, odd
 * encodings in paths and bodies, wrong tokens. The same three promises as for v1: no 5xx,
 * no token in the logs in any encoding, and the service still answers afterwards.
 *
 * BAD_INPUT_SEED and BAD_INPUT_V2_COUNT reproduce or enlarge a run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, startTestSystem, TestSystem } from '../support/processes';
import {
  BadInputContext, DEFAULT_SEED, generateBadRequests, isFailure, MUTATORS, Outcome, secretForms, sendAll, statusHistogram,
  summarise, summariseByCause,
} from '../support/bad-input';
import { V2_OPERATIONS } from '../support/bad-input-v2';

const COUNT = Number(process.env.BAD_INPUT_V2_COUNT ?? 4000);
const SEED = Number(process.env.BAD_INPUT_SEED ?? DEFAULT_SEED);
const CONCURRENCY = 8;

describe('generated bad input, v2', () => {
  let stack: TestSystem;
  let ctx: BadInputContext;
  let files: string;
  let outcomes: Outcome[] | undefined;

  beforeAll(async () => {
    files = mkdtempSync(join(tmpdir(), 'bad-v2-files-'));
    stack = await startTestSystem('e2e_bad2', {
      V2_RATE_LIMIT_MAX: '1000000000', FLOOD_CONTROL_MAX: '1000000000', PUBLIC_RATE_LIMIT_MAX: '1000000000', FILE_STORAGE_DIR: files, FILE_MAX_BYTES: '200000',
      // Webhooks to loopback are allowed (nothing listens on port 9: every delivery fails, and is logged).
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_SCHEDULE: '1s',
    });
    const { env, baseUrl } = stack;
    const adminToken = cli(['token', 'create', '--type', 'admin'], env).stdout.trim();
    const notifyToken = cli(['token', 'create', '--type', 'notification'], env).stdout.trim();
    const post = (method: string, params: Record<string, string>) => fetch(`${baseUrl}/v1/${method}`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ auth_token: adminToken, ...params }),
    }).then(async (r) => ({ status: r.status, json: (await r.json()) as any }));
    const admin = await post('users/create', { email: 'v2admin@example.com', name: 'V2 Admin', is_group_admin: '1' });
    expect(admin.status).toBe(200);
    const user = await post('users/create', { email: 'target@example.com', name: 'Target User' });
    const room = await post('rooms/create', { name: 'Bad Input Target', owner_user_id: String(user.json.user.user_id) });
    expect(room.status).toBe(200);
    const personalToken = cli(['token', 'create', '--type', 'personal', '--user', 'v2admin@example.com'], env).stdout.trim();
    const roomToken = cli(['token', 'create', '--type', 'room', '--room', 'Bad Input Target'], env).stdout.trim();
    expect([personalToken, roomToken]).toEqual([expect.stringMatching(/^[A-Za-z0-9]{40}$/), expect.stringMatching(/^[A-Za-z0-9]{40}$/)]);
    // A webhook of the room, keyed, and one delivery of it, for the webhook and delivery-log operations.
    const v2 = (method: string, path: string, body?: unknown) => fetch(`${baseUrl}/v2${path}`, {
      method, headers: { authorization: `Bearer ${personalToken}`, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}),
    }).then(async (r) => ({ status: r.status, text: await r.text() }));
    const made = await v2('PUT', '/room/Bad%20Input%20Target/extension/webhook/target-hook', { url: 'http://127.0.0.1:9/hook', event: 'room_message', name: 'Target' });
    expect(made.status).toBe(201);
    const webhookId = JSON.parse(made.text).id as number;
    expect((await v2('POST', '/room/Bad%20Input%20Target/message', { message: 'for the delivery log' })).status).toBe(201);
    let deliveryId: string | undefined;
    for (const deadline = Date.now() + 15_000; !deliveryId && Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      deliveryId = JSON.parse((await v2('GET', `/room/Bad%20Input%20Target/webhook/${webhookId}/delivery`)).text).items?.[0]?.id;
    }
    expect(deliveryId).toEqual(expect.any(String));
    const bridged = await v2('POST', '/room/Bad%20Input%20Target/bridge', { kind: 'mattermost', url: 'http://127.0.0.1:9/hook', events: ['room_topic_change'], inbound: { enabled: true } });
    expect(bridged.status).toBe(201);
    const inboundKey = /\/v2\/bridge\/inbound\/([A-Za-z0-9_-]+)$/.exec(JSON.parse(bridged.text).inbound.url)![1];
    ctx = {
      adminToken, notifyToken, personalToken, roomToken, roomId: room.json.room.room_id, roomName: 'Bad Input Target',
      userId: user.json.user.user_id, userEmail: 'target@example.com', webhookId, webhookKey: 'target-hook', deliveryId, inboundKey,
    };
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
    rmSync(files, { recursive: true, force: true });
  }, 30_000);

  it(`answers ${COUNT.toLocaleString('en-US')} malformed requests over every v2 operation without a 5xx`, async () => {
    const requests = generateBadRequests(ctx, { count: COUNT, seed: SEED, operations: V2_OPERATIONS });
    expect(new Set(requests.map((r) => `${r.op} ${r.category.split('+')[0]}`)).size).toBe(V2_OPERATIONS.length * MUTATORS.length);
    const started = Date.now();
    outcomes = await sendAll(stack.baseUrl, requests, { concurrency: CONCURRENCY });
    process.stdout.write(`\nbad input v2: ${requests.length} requests (seed ${SEED}) in ${Date.now() - started} ms\nstatuses: ${statusHistogram(outcomes)}\n`);
    const failures = outcomes.filter(isFailure);
    if (failures.length) {
      throw new Error(
        `${failures.length} of ${outcomes.length} requests failed (seed ${SEED}).\n` +
        `By cause (count × status  operation  mutator):\n${summariseByCause(failures)}\n\nBy case:\n${summarise(failures)}\n\n` +
        // What the services logged at error level or above: the cause of a 5xx, to be read here.
        `Error lines of the services' log:\n${stack.launched.logs((l) => l.level === 'error' || l.level === 'fatal').slice(0, 20).map((l) => JSON.stringify(l)).join('\n')}`,
      );
    }
  }, 240_000);

  it('logs no token, raw, percent-encoded or base64', async () => {
    expect(outcomes).toBeDefined();
    await new Promise((r) => setTimeout(r, 1000));
    const log = [...stack.launched.lines, ...stack.launched.stderr.split('\n')];
    const leaks: string[] = [];
    // The inbound key: a credential in the path of every request to the bridge's inbound URL (the access log redacts it).
    for (const [label, token] of [['personal token', ctx.personalToken!], ['room token', ctx.roomToken!], ['admin token', ctx.adminToken], ['bridge inbound key', ctx.inboundKey!]] as const) {
      for (const { form, text } of secretForms(token)) {
        const hits = log.filter((line) => line.includes(text));
        if (hits.length) leaks.push(`${label} (${form}) in ${hits.length} log lines`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('still answers afterwards: a notification and the history', async () => {
    const auth = { authorization: `Bearer ${ctx.personalToken}`, 'content-type': 'application/json' };
    const text = `after the storm ${Date.now()}`;
    const sent = await fetch(`${stack.baseUrl}/v2/room/${ctx.roomId}/notification`, { method: 'POST', headers: auth, body: JSON.stringify({ message: text, message_format: 'text' }) });
    expect(sent.status).toBe(204);
    const history = await fetch(`${stack.baseUrl}/v2/room/${ctx.roomId}/history?max-results=1000`, { headers: auth });
    expect(history.status).toBe(200);
    expect(((await history.json()) as any).items.map((m: { message: string }) => m.message)).toContain(text);
  }, 30_000);
});
