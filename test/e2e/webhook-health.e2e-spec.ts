/**
 * Webhook health end to end, as a room admin and a receiver see it: the three built
 * services as `npm start` runs them, told to disable a webhook whose every attempt has
 * failed for 2 s and at least 3 times (WEBHOOK_DISABLE_AFTER, WEBHOOK_DISABLE_MIN_FAILURES),
 * with a short retry schedule.
 *
 * A receiver that answers 500 is disabled: its record says so and why, the room's history
 * has the notice, another webhook of the room gets it as a room_notification, and nothing
 * more is sent to it (its pending retries are recorded as failed, not sent). Enabled again,
 * its health is reset and the next message reaches it. A healthy receiver's record shows
 * its last success and no failures. The receivers listen on 127.0.0.2, the one address the
 * system is told to open.
 */
import { Client } from 'pg';
import { eventually } from '../support/harness';
import { Answer, v2Call } from '../support/http';
import { cli, startTestSystem, TestSystem } from '../support/processes';
import { Receiver } from './support-webhooks';

const ADMIN_SCOPES = 'admin_group,admin_room,manage_rooms,send_message,send_notification,view_group,view_messages,view_room';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('webhook health across the built system: a failing webhook disabled, its room told, enabled again', () => {
  let stack: TestSystem;
  let db: Client;
  let receiver: Receiver;
  let token: string;
  let room: number;
  let dead: number;
  let healthy: number;
  let deadUrl: string;
  let deadAnswers = 500;

  const v2 = (verb: string, path: string, body?: unknown): Promise<Answer> => v2Call(stack.baseUrl, token, verb, path, body);
  const say = async (message: string) => {
    const sent = await v2('POST', `/room/${room}/message`, { message });
    expect({ status: sent.status }).toEqual({ status: 201 });
  };
  const register = async (spec: Record<string, unknown>): Promise<number> => {
    const made = await v2('POST', `/room/${room}/webhook`, spec);
    expect(made).toMatchObject({ status: 201, body: { id: expect.any(Number) } });
    return made.body.id;
  };
  const record = async (id: number) => {
    const got = await v2('GET', `/room/${room}/webhook/${id}`);
    expect(got.status).toBe(200);
    return got.body;
  };
  const messagesTo = (path: string, text: string) => receiver.to(path).filter((h) => h.json?.item?.message?.message === text);

  beforeAll(async () => {
    stack = await startTestSystem('e2e_health', {
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.2/32', WEBHOOK_RETRY_SCHEDULE: '300ms,600ms,1s,3s',
      WEBHOOK_DISABLE_AFTER: '2s', WEBHOOK_DISABLE_MIN_FAILURES: '3', FLOOD_CONTROL_MAX: '1000',
    });
    db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    receiver = await Receiver.start('127.0.0.2');

    // Every CLI call that blocks this process (where the receivers answer) happens before any delivery.
    const v1 = cli(['token', 'create', '--type', 'admin'], stack.env).stdout.trim();
    const email = `health-admin-${Date.now()}@example.com`;
    const made = await fetch(`${stack.baseUrl}/v1/users/create`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ auth_token: v1, name: 'Health Admin', email, is_group_admin: '1' }),
    });
    expect(made.status).toBe(200);
    token = cli(['token', 'create', '--type', 'personal', '--user', email, '--scopes', ADMIN_SCOPES], stack.env).stdout.trim();
    expect(token).toMatch(/^[A-Za-z0-9]{40}$/);

    const created = await v2('POST', '/room', { name: 'Health Watch', privacy: 'public' });
    expect(created.status).toBe(201);
    room = created.body.id;
    deadUrl = receiver.route('/dead', () => ({ status: deadAnswers, body: deadAnswers === 500 ? '{"error":"down"}' : undefined }));
    dead = await register({ url: `${deadUrl}?token=receiver-secret`, event: 'room_message', name: 'Dead end' });
    healthy = await register({ url: receiver.route('/healthy', { status: 204 }), event: 'room_message', name: 'Healthy' });
    await register({ url: receiver.route('/watcher', { status: 204 }), event: 'room_notification', name: 'Watcher' });
  }, 90_000);

  afterAll(async () => {
    await receiver?.stop();
    await db?.end().catch(() => undefined);
    await stack?.stop();
  }, 30_000);

  it('a webhook shows no failures and no success before its first delivery', async () => {
    expect(await record(healthy)).toMatchObject({
      enabled: true, last_success_at: null, failing_since: null, consecutive_failures: 0, disabled_reason: null,
    });
  });

  it('disables a receiver that answers 500 past both thresholds: its record says since when, how often and why', async () => {
    // A message every 400 ms: each fails at the receiver, then again on each retry.
    let n = 0;
    const disabledRecord = await eventually(async () => {
      await say(`message ${n++}`);
      const got = await record(dead);
      if (got.enabled !== false) {
        await pause(400);
        throw new Error(`still enabled after ${n} messages: ${JSON.stringify(got)}`);
      }
      return got;
    }, 25_000);
    expect(disabledRecord).toMatchObject({
      id: dead, name: 'Dead end', enabled: false, failing_since: expect.stringMatching(ISO), last_success_at: null,
      consecutive_failures: expect.any(Number),
      disabled_reason: expect.stringMatching(/^every delivery attempt since \S+ has failed \(\d+ failures over \d+s; last error: HTTP 500\)$/),
    });
    expect(disabledRecord.consecutive_failures).toBeGreaterThanOrEqual(3);
    expect(Date.parse(disabledRecord.disabled_reason.split(' ')[4]) - Date.parse(disabledRecord.failing_since)).toBe(0);
    // The list shows it too.
    const list = await v2('GET', `/room/${room}/webhook`);
    expect(list.body.items).toEqual(expect.arrayContaining([expect.objectContaining({ id: dead, enabled: false })]));
  });

  it('tells the room: a notification in its history, delivered to the room\'s other webhook', async () => {
    const history = await v2('GET', `/room/${room}/history`);
    expect(history.status).toBe(200);
    const notices = history.body.items.filter((m: any) => m.type === 'notification');
    expect(notices).toHaveLength(1);
    const notice = notices[0];
    expect(notice).toMatchObject({ from: 'Webhooks', color: 'red', message_format: 'text' });
    expect(notice.message).toMatch(new RegExp(`^"Dead end" \\(webhook ${dead}\\), which posts to ${deadUrl.replace(/\./g, '\\.')}, has been disabled: every delivery attempt since `));
    expect(notice.message).toContain('last error: HTTP 500');
    expect(notice.message).toContain(`enable it with POST /v2/room/${room}/webhook/${dead}/enable (or cli webhook enable ${dead})`);
    expect(notice.message).not.toContain('receiver-secret');

    const delivered = await receiver.waitFor('the notice at the watcher', () => receiver.to('/watcher').find((h) => h.json?.item?.message?.message === notice.message));
    expect(delivered.json).toMatchObject({ event: 'room_notification', item: { message: { from: 'Webhooks', color: 'red' } } });
  });

  it('sends the disabled webhook nothing more: no new message, and its pending retries are recorded as failed, not sent', async () => {
    await say('after disable');
    await receiver.waitFor('the message at the healthy webhook', () => messagesTo('/healthy', 'after disable')[0]);
    const hitsBefore = receiver.to('/dead').length;
    // Longer than the retry schedule's longest wait: a retry still pending would have come by now.
    await pause(4_000);
    expect(messagesTo('/dead', 'after disable')).toEqual([]);
    expect(receiver.to('/dead').length).toBe(hitsBefore);

    // Each retry that came due since is recorded as failed ('webhook disabled'), none cancelled, none left waiting.
    const rows = await eventually(async () => {
      const { rows: found } = await db.query(
        `SELECT status, last_error, count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`, [dead]);
      expect(found.filter((r) => ['pending', 'retrying'].includes(r.status))).toEqual([]);
      return found;
    }, 10_000);
    expect(rows.filter((r) => r.status === 'cancelled')).toEqual([]);
    expect(rows).toEqual(expect.arrayContaining([{ status: 'failed', last_error: 'webhook disabled', n: expect.any(Number) }]));
    expect(receiver.to('/dead').length).toBe(hitsBefore);
  });

  it('refuses to redeliver or recover the disabled webhook\'s deliveries, saying to enable it first; nothing is queued or recorded', async () => {
    const log = async () => (await v2('GET', `/room/${room}/webhook/${dead}/delivery?max-results=1000`)).body.items
      .map((d: { id: string; attempts: number; status: string }) => ({ id: d.id, attempts: d.attempts, status: d.status }));
    const before = await log();
    const { id } = before[0];
    const { disabled_reason: reason } = await record(dead);
    const hitsBefore = receiver.to('/dead').length;
    const refusal = (action: string) => `Webhook ${dead} is disabled (${reason}): enable it first (POST /v2/room/${room}/webhook/${dead}/enable), then ${action}.`;

    // Until this, 202 and an attempt recorded as "webhook disabled" in 0 ms, with no request sent.
    expect(await v2('POST', `/room/${room}/webhook/${dead}/delivery/${id}/redeliver`))
      .toEqual({ status: 400, body: { error: { code: 400, type: 'Bad Request', message: refusal('redeliver') } } });
    expect(await v2('POST', `/room/${room}/webhook/${dead}/recover`, { since: new Date(Date.now() - 3_600_000).toISOString() }))
      .toEqual({ status: 400, body: { error: { code: 400, type: 'Bad Request', message: refusal('recover') } } });
    // The CLI blocks this process: the disabled webhook has nothing due.
    const cliRefusal = (action: string) => `cli: Webhook ${dead} is disabled (${reason}): enable it first (cli webhook enable ${dead}), then ${action}.\n`;
    const redelivered = cli(['webhook', 'redeliver', id], stack.env);
    expect({ status: redelivered.status, stdout: redelivered.stdout, stderr: redelivered.stderr }).toEqual({ status: 1, stdout: '', stderr: cliRefusal('redeliver') });
    const recovered = cli(['webhook', 'recover', String(dead), '--since', '1h'], stack.env);
    expect({ status: recovered.status, stdout: recovered.stdout, stderr: recovered.stderr }).toEqual({ status: 1, stdout: '', stderr: cliRefusal('recover') });

    // Time for a queued attempt to have been made and recorded: none was.
    await pause(1_500);
    expect(await log()).toEqual(before);
    expect(receiver.to('/dead').length).toBe(hitsBefore);
  });

  it('enables it again: 204, health reset, and the next message reaches it', async () => {
    deadAnswers = 204;
    const enabled = await v2('POST', `/room/${room}/webhook/${dead}/enable`);
    expect(enabled).toEqual({ status: 204, body: null });
    expect(await record(dead)).toMatchObject({
      enabled: true, failing_since: null, consecutive_failures: 0, disabled_reason: null, last_success_at: null,
    });

    await say('after enable');
    const hit = await receiver.waitFor('the message at the enabled webhook', () => messagesTo('/dead', 'after enable')[0]);
    expect(hit.json).toMatchObject({ event: 'room_message', webhook_id: dead });
    // What it missed while disabled is not sent.
    expect(messagesTo('/dead', 'after disable')).toEqual([]);
    await eventually(async () => expect(await record(dead)).toMatchObject({
      enabled: true, last_success_at: expect.stringMatching(ISO), consecutive_failures: 0, failing_since: null,
    }), 10_000);

    // Enabled, a delivery refused while it was disabled is redelivered: 202, and it arrives.
    const failed = (await v2('GET', `/room/${room}/webhook/${dead}/delivery?status=failed&max-results=1`)).body.items[0];
    const redelivered = await v2('POST', `/room/${room}/webhook/${dead}/delivery/${failed.id}/redeliver`);
    expect(redelivered).toEqual({ status: 202, body: {} });
    const again = await receiver.waitFor('the redelivery at the enabled webhook', () => receiver.to('/dead').find((h) => h.headers['webhook-id'] === failed.id));
    expect(again.json).toMatchObject({ webhook_id: dead });
    await eventually(async () => expect((await v2('GET', `/room/${room}/webhook/${dead}/delivery/${failed.id}`)).body)
      .toMatchObject({ status: 'delivered', attempts: expect.arrayContaining([expect.objectContaining({ attempt: failed.attempts + 1, status_code: 204 })]) }), 10_000);
  });

  it('shows a healthy receiver\'s last success and no failures', async () => {
    const got = await record(healthy);
    expect(got).toMatchObject({ enabled: true, last_success_at: expect.stringMatching(ISO), failing_since: null, consecutive_failures: 0, disabled_reason: null });
    expect(Date.parse(got.last_success_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('lists the webhooks and their health for the operator, and enables one by id (cli webhook)', async () => {
    // The CLI blocks this process: no delivery is due now.
    const listed = cli(['webhook', 'list', '--room', String(room)], stack.env);
    expect({ status: listed.status, stderr: listed.stderr }).toEqual({ status: 0, stderr: '' });
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toBe('ID\tROOM\tNAME\tEVENT\tURL\tENABLED\tFAILURES\tFAILING_SINCE\tDISABLED_REASON');
    // The CLI shows the URL with its query masked, as anyone but its creator sees it.
    expect(lines).toContain(`${dead}\t${room}\tDead end\troom_message\t${deadUrl}?token=***\tyes\t0\t-\t-`);
    expect(listed.stdout).not.toContain('receiver-secret');

    const enabled = cli(['webhook', 'enable', String(dead)], stack.env);
    expect({ status: enabled.status, stderr: enabled.stderr }).toEqual({ status: 0, stderr: `webhook ${dead} is enabled; its health is reset\n` });
    const unknown = cli(['webhook', 'enable', '999999'], stack.env);
    expect({ status: unknown.status, stderr: unknown.stderr }).toEqual({ status: 1, stderr: 'cli: no webhook 999999\n' });
  });
});
