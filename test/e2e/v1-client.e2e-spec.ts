/**
 * The three built services as separate processes (scripts/start.js, what `npm start`
 * runs), tokens from the real CLI, and a v1 client library from the npm registry
 * (hipchat-client, written for the original service) pointed at our base URL.
 */
import { databaseUrl, removeTestState, TEST_SECRETS_KEYS, testInfra, trackTestState, uniqueName } from '../support/harness';
import { dropTestDatabase, testDatabaseUrl } from '../support/common';
import { cli, freePort, Launched, launchSystem, startTestSystem, TestSystem } from '../support/processes';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const HipChat = require('hipchat-client');

type Callback = (err: Error | null, body: any) => void;

/** hipchat-client keeps its resources on a shared prototype: one client in use at a time. */
function client(baseUrl: string, token: string) {
  const hc = new HipChat(token);
  hc.host = baseUrl;
  const call = (resource: 'rooms' | 'users', method: string, opts: Record<string, unknown>) =>
    new Promise<any>((resolve, reject) => {
      const api = hc.api[resource];
      api.hipchat = hc;
      api[method](opts, ((err, body) => (err ? reject(err) : resolve(body))) as Callback);
    });
  return {
    rooms: (method: string, opts: Record<string, unknown> = {}) => call('rooms', method, opts),
    users: (method: string, opts: Record<string, unknown> = {}) => call('users', method, opts),
  };
}

describe('the whole system, as a new user runs it', () => {
  let env: Record<string, string>;
  let system: Launched;
  let baseUrl: string;
  let startupMs: number;
  let stack: TestSystem;

  beforeAll(async () => {
    // Debug: the dispatcher's line per event shows the notification reached it (and more lines are checked for tokens).
    stack = await startTestSystem('e2e', { LOG_LEVEL: 'debug' });
    ({ env, launched: system, baseUrl, startupMs } = stack);
  });

  afterAll(() => stack?.stop(), 30_000);

  it('answers on the gateway port well within 30 seconds', () => {
    expect(startupMs).toBeLessThan(30_000);
  });

  it('makes tokens from the command line, printing the token alone', async () => {
    const admin = cli(['token', 'create', '--type', 'admin', '--label', 'e2e admin'], env);
    expect(admin.status).toBe(0);
    expect(admin.stdout).toMatch(/^[A-Za-z0-9]{40}\n$/);
    const listed = cli(['token', 'list', '--json'], env);
    expect(JSON.parse(listed.stdout)).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'admin', label: 'e2e admin', revoked: null }),
    ]));
    expect(listed.stdout).not.toContain(admin.stdout.trim());
    const bad = cli(['token', 'create', '--type', 'superuser'], env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--type must be one of admin, notification');
    // A DATABASE_URL naming a database nothing serves (a typo): made, as the service would, and said.
    const typo = testDatabaseUrl('typo');
    try {
      const listed = cli(['token', 'list'], { ...env, DATABASE_URL: typo });
      expect(listed.status).toBe(0);
      expect(listed.stderr).toContain(`did not exist and was created: is DATABASE_URL the one the service uses?`);
      expect(cli(['token', 'list'], { ...env, DATABASE_URL: typo }).stderr).not.toContain('did not exist');
    } finally {
      await dropTestDatabase(typo);
    }
  });

  it('serves an unchanged v1 client library: users, rooms, messages, topics, history', async () => {
    const adminToken = cli(['token', 'create', '--type', 'admin'], env).stdout.trim();
    const notifyToken = cli(['token', 'create', '--type', 'notification'], env).stdout.trim();

    const admin = client(baseUrl, adminToken);
    const created = await admin.users('create', { email: 'grace@example.com', name: 'Grace Hopper', mention_name: 'grace' });
    expect(created.user).toMatchObject({ name: 'Grace Hopper', mention_name: 'grace', email: 'grace@example.com' });
    expect(typeof created.user.password).toBe('string');

    const room = await admin.rooms('create', { name: 'Release Train', owner_user_id: created.user.user_id, topic: 'Ship it' });
    expect(room.room).toMatchObject({ name: 'Release Train', topic: 'Ship it', owner_user_id: created.user.user_id, is_private: false });

    const listed = await admin.rooms('list');
    expect(listed.rooms.map((r: { name: string }) => r.name)).toContain('Release Train');

    const notifier = client(baseUrl, notifyToken);
    await expect(notifier.rooms('message', {
      room_id: 'Release Train', from: 'CI', message: 'Build <b>42</b> passed @grace', message_format: 'text', color: 'green', notify: 1,
    })).resolves.toEqual({ status: 'sent' });
    await expect(notifier.rooms('topic', { room_id: room.room.room_id, topic: 'Frozen until Monday' })).resolves.toEqual({ status: 'ok' });
    await expect(notifier.rooms('list')).rejects.toThrow(/^403 \(Forbidden\)/);

    const admin2 = client(baseUrl, adminToken);
    const history = await admin2.rooms('history', { room_id: 'Release Train', date: 'recent', timezone: 'Europe/Paris' });
    expect(history.messages).toEqual([
      { date: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[12]00$/), from: { name: 'CI', user_id: 'api' }, message: 'Build <b>42</b> passed @grace' },
    ]);
    const shown = await admin2.rooms('show', { room_id: room.room.room_id });
    expect(shown.room).toMatchObject({ topic: 'Frozen until Monday', participants: [], member_user_ids: [] });
    expect(shown.room.last_active).toBeGreaterThan(0);

    // The notification reached the dispatcher as a room_notification event.
    const received = await system.waitForLog((l) =>
      l.service === 'webhook-dispatcher' && l.msg === 'event received' && l.webhookEvent === 'room_notification');
    expect(received.roomId).toBe(room.room.room_id);
    await system.waitForLog((l) => l.service === 'webhook-dispatcher' && l.webhookEvent === 'room_topic_change');

    // Logs never carry the token.
    expect(system.lines.join('\n')).not.toContain(adminToken);
    expect(system.lines.join('\n')).not.toContain(notifyToken);
  });

  it('stops answering a revoked token', async () => {
    const token = cli(['token', 'create', '--type', 'admin'], env).stdout.trim();
    const before = await fetch(`${baseUrl}/v1/rooms/list?auth_token=${token}`);
    expect(before.status).toBe(200);
    const id = (JSON.parse(cli(['token', 'list', '--json'], env).stdout) as Array<{ id: number }>).at(-1)!.id;
    expect(cli(['token', 'revoke', String(id)], env).status).toBe(0);
    const after = await fetch(`${baseUrl}/v1/rooms/list?auth_token=${token}`);
    expect(after.status).toBe(401);
  });

  it('stops all three services cleanly on Ctrl-C', async () => {
    system.child.kill('SIGINT');
    const { code } = await system.exited;
    expect(code).toBe(0);
    expect(system.logs((l) => l.msg === 'rooms service stopping')).toHaveLength(1);
    await expect(fetch(`${baseUrl}/health`)).rejects.toThrow();
  });
});

describe('start-up with a dependency down', () => {
  const infra = testInfra();

  async function startExpectingFailure(overrides: Record<string, string>) {
    const port = await freePort();
    // What the services made before one gave up is removed here, or runs would leave it behind on
    // the shared servers: with only the broker down, the rooms service creates its database; with
    // only PostgreSQL down, the other services may have declared their queues.
    const database = databaseUrl(infra.pgServerUrl, uniqueName('chat_e2e'));
    const namespace = uniqueName('e2e');
    const state = trackTestState({ namespace, databaseUrl: database });
    const system = launchSystem({
      PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: database,
      AMQP_URL: infra.amqpUrl, BROKER_NAMESPACE: namespace, STARTUP_TIMEOUT_SECONDS: '1', LOG_LEVEL: 'warn', METRICS_PORT: '0',
      SECRETS_KEYS: TEST_SECRETS_KEYS,
      ...overrides,
    });
    const result = await system.exited;
    await removeTestState(infra, state);
    return { ...result, stderr: system.stderr };
  }

  it('names PostgreSQL, its address and how to start it, and exits non-zero', async () => {
    const result = await startExpectingFailure({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/chat' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Cannot reach PostgreSQL at 127.0.0.1:1 (DATABASE_URL)');
    expect(result.stderr).toContain('pg_ctlcluster');
  });

  it('names RabbitMQ, its address and how to start it, and exits non-zero', async () => {
    const result = await startExpectingFailure({ AMQP_URL: 'amqp://guest:guest@127.0.0.1:1' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Cannot reach RabbitMQ at 127.0.0.1:1 (AMQP_URL)');
    expect(result.stderr).toContain('rabbitmq-server -detached');
  });

  it('names a wrongly set variable', async () => {
    const result = await startExpectingFailure({ PORT: 'eighty' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('PORT: must be a port number (got "eighty")');
  });
});
