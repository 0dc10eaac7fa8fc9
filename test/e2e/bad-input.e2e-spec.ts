/**
 * Generated bad input against the built system (the three services as processes, as
 * `npm start` runs them): at least 5,000 malformed requests over every v1 method and some
 * unknown paths (test/support/bad-input.ts), then three promises:
 *  (a) no answer is a 5xx, and every request well-formed at the HTTP level gets an answer;
 *  (b) no log line carries a token, raw, percent-encoded or base64;
 *  (c) the service still answers afterwards.
 *
 * A dropped connection is acceptable only for requests malformed at the HTTP level (the
 * request line or framing; each such case says why in `httpLevel`): request targets over
 * Node's 16 KB header limit (431, or closed while sending), methods Node's parser does not
 * know (custom, lower-case), CONNECT, control characters, spaces or raw non-ASCII bytes in
 * the request line, missing Host, broken chunked framing, Content-Length with
 * Transfer-Encoding, header lines without a colon or folded, negative Content-Length,
 * HTTP/2.0 in an HTTP/1 request line. Everything else must be answered, below 500.
 *
 * BAD_INPUT_SEED and BAD_INPUT_COUNT reproduce or enlarge a run.
 */
import { cli, Launched, startTestSystem, TestSystem } from '../support/processes';
import {
  BadInputContext, DEFAULT_SEED, generateBadRequests, isFailure, MUTATORS, Outcome, secretForms, sendAll, statusHistogram,
  summarise, summariseByCause,
} from '../support/bad-input';

const COUNT = Number(process.env.BAD_INPUT_COUNT ?? 5200);
const SEED = Number(process.env.BAD_INPUT_SEED ?? DEFAULT_SEED);
const CONCURRENCY = 8;

async function form(baseUrl: string, verb: 'GET' | 'POST', method: string, params: Record<string, string>) {
  const body = new URLSearchParams(params).toString();
  const res = verb === 'GET'
    ? await fetch(`${baseUrl}/v1/${method}?${body}`)
    : await fetch(`${baseUrl}/v1/${method}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

describe('generated bad input', () => {
  let env: Record<string, string>;
  let system: Launched;
  let baseUrl: string;
  let ctx: BadInputContext;
  let outcomes: Outcome[] | undefined;

  let stack: TestSystem;

  beforeAll(async () => {
    // Its generated requests carry many unknown tokens: the per-address limit of those is not what it tests.
    stack = await startTestSystem('e2e_bad', { RATE_LIMIT_MAX: '1000000000', AUTH_FAILURE_RATE_LIMIT_MAX: '1000000000' });
    ({ env, launched: system, baseUrl } = stack);

    const adminToken = cli(['token', 'create', '--type', 'admin', '--label', 'bad input admin'], env).stdout.trim();
    const notifyToken = cli(['token', 'create', '--type', 'notification', '--label', 'bad input notifier'], env).stdout.trim();
    expect(adminToken).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(notifyToken).toMatch(/^[A-Za-z0-9]{40}$/);

    const user = await form(baseUrl, 'POST', 'users/create', { auth_token: adminToken, email: 'target@example.com', name: 'Target User' });
    expect(user.status).toBe(200);
    const userId = user.json().user.user_id as number;
    const room = await form(baseUrl, 'POST', 'rooms/create', { auth_token: adminToken, name: 'Bad Input Target', owner_user_id: String(userId) });
    expect(room.status).toBe(200);
    ctx = { adminToken, notifyToken, roomId: room.json().room.room_id, roomName: 'Bad Input Target', userId, userEmail: 'target@example.com' };
  }, 60_000);

  afterAll(() => stack?.stop(), 30_000);

  it(`answers ${COUNT.toLocaleString('en-US')} malformed requests over every method without a 5xx`, async () => {
    expect(COUNT).toBeGreaterThanOrEqual(5000);
    const started = Date.now();
    const requests = generateBadRequests(ctx, { count: COUNT, seed: SEED });
    const generatedMs = Date.now() - started;
    expect(requests.length).toBe(COUNT);
    // Every operation (13 methods and the unknown paths) met every mutator.
    expect(new Set(requests.map((r) => `${r.op} ${r.category.split('+')[0]}`)).size).toBe(14 * MUTATORS.length);

    outcomes = await sendAll(baseUrl, requests, { concurrency: CONCURRENCY });
    const sentMs = Date.now() - started - generatedMs;
    const dropped = outcomes.filter((o) => o.status === undefined && !isFailure(o)).length;
    process.stdout.write(
      `\nbad input: ${requests.length} requests (seed ${SEED}), generated in ${generatedMs} ms, sent in ${sentMs} ms ` +
      `(concurrency ${CONCURRENCY}); ${dropped} HTTP-level requests lost their connection (acceptable)\n` +
      `statuses: ${statusHistogram(outcomes)}\n`,
    );

    const failures = outcomes.filter(isFailure);
    if (failures.length) {
      throw new Error(
        `${failures.length} of ${outcomes.length} requests failed (5xx, timeout, or no answer to a request well-formed at the HTTP level; seed ${SEED}).\n` +
        `By cause (count × status  operation  mutator):\n${summariseByCause(failures)}\n\n` +
        `By case (count × status  method path  case):\n${summarise(failures)}`,
      );
    }
  }, 180_000);

  it('logs neither token, raw, percent-encoded or base64', async () => {
    expect(outcomes).toBeDefined();
    await new Promise((r) => setTimeout(r, 1000)); // let the last lines reach the pipe
    const log = [...system.lines, ...system.stderr.split('\n')];
    const leaks: string[] = [];
    for (const [label, token] of [['admin token', ctx.adminToken], ['notification token', ctx.notifyToken]] as const) {
      const forms = secretForms(token);
      for (const { form: name, text } of forms) {
        const hits = log.filter((line) => line.includes(text));
        if (!hits.length) continue;
        const masked = (line: string) => forms.reduce((l, f) => l.split(f.text).join(`<${label}: ${f.form}>`), line);
        leaks.push(`${label} (${name}) in ${hits.length} log lines, e.g.:\n${hits.slice(0, 5).map((l) => `    ${masked(l).slice(0, 400)}`).join('\n')}`);
      }
    }
    if (leaks.length) throw new Error(`secrets in the logs:\n${leaks.join('\n')}`);
  });

  it('still answers afterwards: health, a message and the history', async () => {
    const health = await fetch(`${baseUrl}/health`);
    expect(health.status).toBe(200);
    const text = `after the storm ${Date.now()}`;
    const sent = await form(baseUrl, 'POST', 'rooms/message', {
      auth_token: ctx.notifyToken, room_id: ctx.roomName, from: 'Checker', message: text, message_format: 'text',
    });
    expect({ status: sent.status, body: sent.text }).toEqual({ status: 200, body: expect.stringContaining('"sent"') });
    const history = await form(baseUrl, 'GET', 'rooms/history', { auth_token: ctx.adminToken, room_id: String(ctx.roomId), date: 'recent' });
    expect(history.status).toBe(200);
    expect(history.json().messages.map((m: { message: string }) => m.message)).toContain(text);
  }, 30_000);
});
