import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { AmqpBroker, createLogger, RpcClient } from '@app/common';
import { brokerNames, CreateRoomV1, CreateUserV1, CreateWebhookV1, InstallAddonV1, SendNotificationV1 } from '@app/contracts';
import { eventually, Stack, startStack } from '../../../test/support/harness';
import { standardWebhookKey } from '../src/signing/standard-webhooks';
import { Received, Receiver } from './receiver';

/*
 * Secrets at rest (issue 34): a REST webhook's signing secret (answered once) and an
 * add-on's oauthSecret (POSTed to its callback once) are nowhere in the database in clear:
 * not in their tables, not in the command log, not in the removed webhooks' forms, not in
 * the dispatcher's records. A dump of every table of the database the rooms service and
 * the dispatcher share is searched for them; deliveries are still signed with them.
 */
const SEALED = /^enc:v1:test:/;

describe('secrets at rest (gateway, rooms, dispatcher, a local receiver and add-on)', () => {
  let stack: Stack;
  let receiver: Receiver;
  let broker: AmqpBroker;
  let rpc: RpcClient;
  let ownerId: number;
  let roomId: number;
  let personal: string;

  const owner = () => ({ label: 'admin', userId: ownerId });
  const v2 = async (verb: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${stack.baseUrl}/v2/${path}`, {
      method: verb,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  const query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const client = new Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  const arrived = (path: string, text: string) => eventually(() => {
    const found = receiver.to(path).find((r) => JSON.parse(r.body).item?.message?.message === text);
    expect(found).toBeDefined();
    return found!;
  }, 10_000);
  const standardSignatureOf = (r: Received, secret: string) => new Webhook(standardWebhookKey(secret)).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });

  /** Every row of every table of the database, as text (what a dump holds), by table. */
  const dump = async (): Promise<Array<{ table: string; row: string }>> => {
    const tables = await query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`);
    const rows: Array<{ table: string; row: string }> = [];
    for (const t of tables) {
      const name = `"${t.table_schema}"."${t.table_name}"`;
      for (const r of await query<{ row: string }>(`SELECT t::text AS row FROM ${name} t`)) rows.push({ table: name, row: r.row });
    }
    return rows;
  };

  beforeAll(async () => {
    receiver = await Receiver.start();
    stack = await startStack({
      gateway: { V2_RATE_LIMIT_MAX: '100000' },
      rooms: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' },
      dispatcher: { WEBHOOK_RETRY_SCHEDULE: '200ms', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' },
    });
    broker = await AmqpBroker.connect(stack.amqpUrl, brokerNames(stack.namespace), createLogger('test', 'silent'));
    rpc = await broker.createRpcClient(brokerNames(stack.namespace).roomsCommandQueue, 10_000);
    ownerId = (await rpc.request(CreateUserV1, { email: 'owner@example.com', name: 'Owner', isGroupAdmin: true })).user.id;
    roomId = (await rpc.request(CreateRoomV1, {
      actor: owner(), name: 'Secret Keepers', owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false,
    })).room.id;
    personal = await stack.createToken('personal', 'owner', { user: String(ownerId) });
  });

  afterAll(async () => {
    await receiver?.stop();
    await broker?.close();
    await stack?.stop();
  });

  it('a dump of every table holds none of the secrets in clear, and deliveries are still signed with them', async () => {
    // A REST webhook: its secret answered once.
    const rest = await v2('POST', `room/${roomId}/webhook`, personal, {
      url: receiver.route('/rest/hook', { status: 204 }), event: 'room_notification', authentication: 'jwt', name: 'Signed',
    });
    expect(rest.status).toBe(201);
    const restSecret: string = rest.json.secret;
    // A keyed one, replaced (its former form goes to webhooks_removed), and one deleted.
    const keyed = await v2('PUT', `room/${roomId}/extension/webhook/keyed`, personal, { url: `${receiver.base}/keyed/1`, event: 'room_exit' });
    expect(keyed.status).toBe(201);
    expect((await v2('PUT', `room/${roomId}/extension/webhook/keyed`, personal, { url: `${receiver.base}/keyed/2`, event: 'room_exit' })).status).toBe(204);
    const gone = await v2('POST', `room/${roomId}/webhook`, personal, { url: `${receiver.base}/gone`, event: 'room_enter' });
    expect(gone.status).toBe(201);
    expect((await v2('DELETE', `room/${roomId}/webhook/${gone.json.id}`, personal)).status).toBe(204);

    // An add-on: its oauthSecret POSTed to its callback once, then used at the token endpoint.
    const descriptor = {
      key: 'com.example.keeper', name: 'Keeper', links: { self: `${receiver.base}/keeper/descriptor` },
      capabilities: {
        installable: { callbackUrl: `${receiver.base}/keeper/installed`, allowRoom: true },
        hipchatApiConsumer: { scopes: ['send_notification'] },
        webhook: [{ url: receiver.route('/keeper/hook', { status: 204 }), event: 'room_notification', authentication: 'jwt', name: 'Keeper hook' }],
      },
    };
    receiver.route('/keeper/installed', { status: 200, body: '{}', headers: { 'content-type': 'application/json' } });
    const url = receiver.route('/keeper/descriptor', { status: 200, body: JSON.stringify(descriptor), headers: { 'content-type': 'application/json' } });
    await rpc.request(InstallAddonV1, { actor: owner(), url, room: { id: roomId } });
    const { oauthId, oauthSecret } = JSON.parse(receiver.to('/keeper/installed')[0].body) as { oauthId: string; oauthSecret: string };
    const token = await fetch(`${stack.baseUrl}/v2/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${oauthId}:${oauthSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(token.status).toBe(200);

    // Deliveries are signed with the secrets as their receivers were given them.
    await rpc.request(SendNotificationV1, { actor: owner(), room: { id: roomId }, message: 'signed', messageFormat: 'text', notify: false, color: 'yellow' });
    const got = await arrived('/rest/hook', 'signed');
    expect(jwt.verify(String(got.headers.authorization).replace(/^JWT /, ''), restSecret, { algorithms: ['HS256'] }))
      .toMatchObject({ iss: String(rest.json.id), sub: String(ownerId) });
    expect(standardSignatureOf(got, restSecret)).toMatchObject({ webhook_id: rest.json.id });
    const addonGot = await arrived('/keeper/hook', 'signed');
    expect(jwt.verify(String(addonGot.headers.authorization).replace(/^JWT /, ''), oauthSecret, { algorithms: ['HS256'] })).toMatchObject({ iss: oauthId });

    // Nowhere in clear: not as given, nor as the Standard Webhooks key the receiver may derive.
    const secrets = { rest: restSecret, keyed: keyed.json.secret as string, gone: gone.json.secret as string, oauth: oauthSecret };
    for (const s of Object.values(secrets)) expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await dump();
    expect(rows.length).toBeGreaterThan(20);
    const found = rows.flatMap(({ table, row }) => Object.entries(secrets)
      .filter(([, s]) => row.includes(s) || row.includes(standardWebhookKey(s).slice('whsec_'.length)))
      .map(([name]) => `${name} in ${table}`));
    expect(found).toEqual([]);

    // What is kept instead: sealed values, and no secret at all for a replaced form.
    const kept = await query<{ place: string; secret: string | null }>(
      `SELECT 'webhooks' AS place, secret FROM webhooks WHERE id = ANY ($1)
       UNION ALL SELECT 'oauth_clients', secret FROM oauth_clients WHERE id = $2
       UNION ALL SELECT 'applied_commands', reply->>'secret' FROM applied_commands WHERE (reply->'webhook'->>'id')::int = ANY ($1) AND reply ? 'secret'
       UNION ALL SELECT 'replaced form', secret FROM webhooks_removed WHERE id = $3
       UNION ALL SELECT 'deleted form', secret FROM webhooks_removed WHERE id = $4`,
      [[rest.json.id, keyed.json.id], oauthId, keyed.json.id, gone.json.id]);
    expect(kept.filter((k) => k.place !== 'replaced form' && !SEALED.test(k.secret ?? ''))).toEqual([]);
    expect(kept.map((k) => k.place).sort()).toEqual(
      ['applied_commands', 'applied_commands', 'deleted form', 'oauth_clients', 'replaced form', 'webhooks', 'webhooks'].sort());
    expect(kept.filter((k) => k.place === 'replaced form').map((k) => k.secret)).toEqual([null]);
  });

  it('a create sent again with its command id answers the same secret, kept sealed in the command log', async () => {
    const commandId = randomUUID();
    const create = () => rpc.request(CreateWebhookV1, {
      actor: { label: 'owner', userId: ownerId }, room: { id: roomId }, url: `${receiver.base}/again`, event: 'room_enter',
    }, undefined, { commandId });
    const first = await create();
    const again = await create();
    expect(first.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(again).toEqual(first);
    const [stored] = await query<{ secret: string }>('SELECT reply->>\'secret\' AS secret FROM applied_commands WHERE command_id = $1', [commandId]);
    expect(stored.secret).toMatch(SEALED);
  });
});
