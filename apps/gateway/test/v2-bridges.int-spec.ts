import { createHash } from 'node:crypto';
import { parseSecretKeys, SecretBox, secretPurpose } from '@app/common';
import { ListRegistrationsV1, WebhookRegistration } from '@app/contracts';
import { DataSource } from 'typeorm';
import { BridgeRepository } from '../../rooms/src/bridges/bridge.repository';
import { BridgeCommands } from '../../rooms/src/cli/bridge-commands';
import { resealSecrets } from '../../rooms/src/secrets/reseal-secrets';
import { SecretsRepository } from '../../rooms/src/secrets/secrets.repository';
import { RoomsClient } from '../src/shared/rooms-client';
import { EventCapture, Stack, startStack, V1Response } from '../../../test/support/harness';
import { TEST_SECRETS_KEYS } from '../../../test/support/common';
import { v2, V2CallOptions, v2Session, V2Session } from './v2-helpers';

const BASE = 'https://chat.example.test';
const CHANGED = 'webhook.registrations-changed.v1';
const INBOUND_URL = new RegExp(`^${BASE.replace(/\./g, '\\.')}/v2/bridge/inbound/([A-Za-z0-9_-]{43})$`);

const errorOf = (res: V1Response) => ({ status: res.status, code: res.json.error.code, type: res.json.error.type, message: res.json.error.message });
const bad = (message: string | RegExp) => ({ status: 400, code: 400, type: 'Bad Request', message: typeof message === 'string' ? message : expect.stringMatching(message) });
const notFound = (message: string) => ({ status: 404, code: 404, type: 'Not Found', message });
const NEVER_TRIED = { last_success_at: null, failing_since: null, consecutive_failures: 0, last_error: null };
const DEFAULT_EVENTS = ['room_message', 'room_notification', 'room_topic_change', 'room_file_upload'];

describe('v2 bridges: the resource (real services)', () => {
  let stack: Stack;
  let capture: EventCapture;
  let db: DataSource;
  let s: V2Session;
  let n = 0;

  const call = (verb: string, path: string, opts: V2CallOptions = {}) => v2(stack.baseUrl, verb, path, { token: s.token, ...opts });
  const createRoom = async (name = `Bridged ${n++}`): Promise<number> => {
    const res = await call('POST', 'room', { body: { name } });
    if (res.status !== 201) throw new Error(`POST /v2/room answered ${res.status}: ${res.text}`);
    return res.json.id as number;
  };
  const create = async (room: number, body: Record<string, unknown>) => {
    const res = await call('POST', `room/${room}/bridge`, { body });
    if (res.status !== 201) throw new Error(`POST bridge answered ${res.status}: ${res.text}`);
    return res;
  };
  const registrations = async (): Promise<WebhookRegistration[]> =>
    (await stack.gateway!.get(RoomsClient).send(ListRegistrationsV1, { sealedUrls: true })).registrations;
  const auditOf = async (id: number) => {
    const res = await call('GET', 'audit', { query: { 'max-results': 1000 } });
    expect(res.status).toBe(200);
    return (res.json.items as Array<{ action: string; target: { type: string; id: number }; details: unknown }>)
      .filter((i) => i.target.type === 'bridge' && i.target.id === id).reverse();
  };

  beforeAll(async () => {
    stack = await startStack({ gateway: { V2_RATE_LIMIT_MAX: '100000', PUBLIC_BASE_URL: BASE }, rooms: { PUBLIC_BASE_URL: BASE } });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    db = stack.rooms!.get(DataSource);
    s = await v2Session(stack);
  });
  afterAll(async () => {
    await capture?.stop();
    await stack?.stop();
  });

  it('creates a Slack bridge: 201 with its view, the URL\'s query masked, the default events, no secret', async () => {
    const room = await createRoom();
    const seen = capture.waitFor(CHANGED, (e) => e.payload.roomId === room);
    const res = await create(room, { kind: 'slack', url: 'https://hooks.slack.com/services/T0/B0/abc?token=s3cret', name: 'Ops channel' });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const id = res.json.id as number;
    expect(res.json).toEqual({
      id, kind: 'slack', name: 'Ops channel', url: 'https://hooks.slack.com/services/***?token=***', events: DEFAULT_EVENTS, pattern: null,
      enabled: true, disabled_reason: null, created: expect.any(String), health: NEVER_TRIED,
      inbound: { enabled: false, verified_by: null }, links: { self: `${BASE}/v2/room/${room}/bridge/${id}` },
    });
    expect(res.text).not.toContain('s3cret');
    await seen;

    // Stored as a webhook row: ordered, its event the first of its events, its signing secret sealed.
    const [row] = await db.query('SELECT event, delivery, authentication, bridge_kind, bridge_events, secret FROM webhooks WHERE id = $1', [id]);
    expect(row).toMatchObject({ event: 'room_message', delivery: 'ordered', authentication: 'none', bridge_kind: 'slack', bridge_events: DEFAULT_EVENTS });
    expect(SecretBox.isSealed(row.secret)).toBe(true);

    expect(await auditOf(id)).toEqual([expect.objectContaining({
      action: 'bridge.created', target: { type: 'bridge', id, name: 'Ops channel' },
      details: { roomId: room, kind: 'slack', events: DEFAULT_EVENTS, inbound: false },
    })]);
  });

  it('creates a bridge of each kind', async () => {
    const room = await createRoom();
    for (const kind of ['slack', 'mattermost', 'discord', 'teams', 'googlechat', 'rocketchat']) {
      const res = await create(room, { kind, url: `https://${kind}.example.com/hook`, events: ['room_message', 'room_enter'] });
      expect(res.json).toMatchObject({ kind, events: ['room_message', 'room_enter'], name: '' });
      expect(res.json.matrix).toBeUndefined();
    }
    const list = await call('GET', `room/${room}/bridge`);
    expect(list.status).toBe(200);
    expect(list.json.items.map((b: { kind: string }) => b.kind)).toEqual(['slack', 'mattermost', 'discord', 'teams', 'googlechat', 'rocketchat']);
    expect(list.json.links.self).toBe(`${BASE}/v2/room/${room}/bridge`);
  });

  it('creates a Matrix bridge: its room shown, its access token sealed and never answered', async () => {
    const room = await createRoom();
    const token = 'syt_bWF0cml4_secret_token_123';
    const res = await create(room, { kind: 'matrix', url: 'https://matrix.example.org', matrix: { room_id: '!abc:example.org', access_token: token } });
    const id = res.json.id as number;
    expect(res.json).toMatchObject({ kind: 'matrix', matrix: { room_id: '!abc:example.org' } });
    const got = await call('GET', `room/${room}/bridge/${id}`);
    expect(got.status).toBe(200);
    expect(got.json).toEqual(res.json);
    for (const text of [res.text, got.text, (await call('GET', `room/${room}/bridge`)).text]) expect(text).not.toContain(token);

    const [row] = await db.query('SELECT matrix_room_id, matrix_access_token FROM webhooks WHERE id = $1', [id]);
    expect(row.matrix_room_id).toBe('!abc:example.org');
    expect(stack.rooms!.get(SecretBox).open(row.matrix_access_token, secretPurpose.bridgeToken(id))).toBe(token);

    // The dispatchers' listing carries the bridge target (the token sealed, as a webhook's secret).
    const reg = (await registrations()).find((r) => r.id === id)!;
    expect(reg).toMatchObject({ delivery: 'ordered', bridge: { kind: 'matrix', events: DEFAULT_EVENTS, matrixRoomId: '!abc:example.org', matrixAccessToken: row.matrix_access_token } });
    const hook = await call('POST', `room/${room}/webhook`, { body: { url: 'https://receiver.example.com/x', event: 'room_message' } });
    expect((await registrations()).find((r) => r.id === hook.json.id)!.bridge).toBeUndefined();
  });

  it('creates a Mattermost bridge with inbound: the URL shown once, only its hash kept, the token sealed', async () => {
    const room = await createRoom();
    const res = await create(room, { kind: 'mattermost', url: 'https://mm.example.com/hooks/xyz', inbound: { enabled: true, token: 'mm-token-1' } });
    const id = res.json.id as number;
    expect(res.json.inbound).toEqual({ enabled: true, url: expect.stringMatching(INBOUND_URL), verified_by: 'token' });
    const key = INBOUND_URL.exec(res.json.inbound.url)![1];
    const got = await call('GET', `room/${room}/bridge/${id}`);
    expect(got.json.inbound).toEqual({ enabled: true, verified_by: 'token' });
    expect(got.text).not.toContain(key);
    expect(got.text).not.toContain('mm-token-1');

    const [row] = await db.query('SELECT inbound_key_hash, inbound_token FROM webhooks WHERE id = $1', [id]);
    expect(row.inbound_key_hash.equals(createHash('sha256').update(key).digest())).toBe(true);
    expect(stack.rooms!.get(SecretBox).open(row.inbound_token, secretPurpose.bridgeInbound(id, 'token'))).toBe('mm-token-1');
    const found = await stack.rooms!.get(BridgeRepository).findByInboundKey(db.manager, key);
    expect(found).toMatchObject({ id, kind: 'mattermost', inbound: { enabled: true, token: row.inbound_token } });
    expect(await stack.rooms!.get(BridgeRepository).findByInboundKey(db.manager, `${key.slice(1)}A`)).toBeNull();

    // The audit line names neither the token nor the inbound URL.
    const text = JSON.stringify(await auditOf(id));
    expect(text).not.toContain(key);
    expect(text).not.toContain('mm-token-1');
  });

  it('replaces a bridge with PUT: the kind stays, secrets left out are kept, rotate makes a new inbound URL', async () => {
    const room = await createRoom();
    const made = await create(room, { kind: 'teams', url: 'https://teams.example.com/hook', inbound: { enabled: true, hmac_secret: 'c2VjcmV0LWtleQ==' } });
    const id = made.json.id as number;
    const firstKey = INBOUND_URL.exec(made.json.inbound.url)![1];
    const [before] = await db.query('SELECT inbound_hmac_secret FROM webhooks WHERE id = $1', [id]);

    const put = await call('PUT', `room/${room}/bridge/${id}`, { body: { kind: 'teams', url: 'https://teams.example.com/other', name: 'Renamed', events: ['room_message'], inbound: { enabled: true } } });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ id, name: 'Renamed', url: 'https://teams.example.com/***', events: ['room_message'], inbound: { enabled: true, verified_by: 'hmac' } });
    expect(put.json.inbound.url).toBeUndefined();
    const [kept] = await db.query('SELECT inbound_hmac_secret FROM webhooks WHERE id = $1', [id]);
    expect(kept.inbound_hmac_secret).toBe(before.inbound_hmac_secret);

    const rotated = await call('PUT', `room/${room}/bridge/${id}`, { body: { kind: 'teams', url: 'https://teams.example.com/other', inbound: { enabled: true, rotate: true } } });
    expect(rotated.status).toBe(200);
    const newKey = INBOUND_URL.exec(rotated.json.inbound.url)![1];
    expect(newKey).not.toBe(firstKey);
    const repo = stack.rooms!.get(BridgeRepository);
    expect(await repo.findByInboundKey(db.manager, firstKey)).toBeNull();
    expect((await repo.findByInboundKey(db.manager, newKey))?.id).toBe(id);

    expect(errorOf(await call('PUT', `room/${room}/bridge/${id}`, { body: { kind: 'slack', url: 'https://teams.example.com/other' } })))
      .toEqual(bad('kind: cannot change (this bridge is teams): delete it and add a slack bridge'));
    expect((await auditOf(id)).map((l) => l.action)).toEqual(['bridge.created', 'bridge.changed', 'bridge.changed', 'bridge.inbound_rotated']);
  });

  it('deletes a bridge: 204, then 404; the change reaches the dispatchers and the audit log', async () => {
    const room = await createRoom();
    const id = (await create(room, { kind: 'discord', url: 'https://discord.example.com/api/webhooks/1/x' })).json.id as number;
    const seen = capture.waitFor(CHANGED, (e) => e.payload.roomId === room && JSON.stringify(e.payload.webhookIds) === JSON.stringify([id]));
    const res = await call('DELETE', `room/${room}/bridge/${id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    await seen;
    expect(errorOf(await call('GET', `room/${room}/bridge/${id}`))).toEqual(notFound(`Bridge ${id} not found`));
    expect(errorOf(await call('DELETE', `room/${room}/bridge/${id}`))).toEqual(notFound(`Bridge ${id} not found`));
    expect((await auditOf(id)).map((l) => l.action)).toEqual(['bridge.created', 'bridge.deleted']);
  });

  it('keeps bridges and webhooks apart: neither id names the other', async () => {
    const room = await createRoom();
    const bridgeId = (await create(room, { kind: 'slack', url: 'https://hooks.slack.com/services/A/B/c' })).json.id as number;
    const hook = await call('POST', `room/${room}/webhook`, { body: { url: 'https://receiver.example.com/y', event: 'room_message' } });
    expect(hook.status).toBe(201);
    const hookId = hook.json.id as number;

    expect(errorOf(await call('GET', `room/${room}/webhook/${bridgeId}`))).toEqual(notFound(`Webhook ${bridgeId} not found`));
    expect(errorOf(await call('DELETE', `room/${room}/webhook/${bridgeId}`))).toEqual(notFound(`Webhook ${bridgeId} not found`));
    expect(errorOf(await call('POST', `room/${room}/webhook/${bridgeId}/enable`))).toEqual(notFound(`Webhook ${bridgeId} not found`));
    expect((await call('GET', `room/${room}/webhook`)).json.items.map((w: { id: number }) => w.id)).toEqual([hookId]);
    expect(errorOf(await call('GET', `room/${room}/bridge/${hookId}`))).toEqual(notFound(`Bridge ${hookId} not found`));
    expect(errorOf(await call('PUT', `room/${room}/bridge/${hookId}`, { body: { kind: 'slack', url: 'https://x.example.com/' } }))).toEqual(notFound(`Bridge ${hookId} not found`));
    expect(errorOf(await call('DELETE', `room/${room}/bridge/${hookId}`))).toEqual(notFound(`Bridge ${hookId} not found`));
    expect((await call('GET', `room/${room}/bridge`)).json.items.map((b: { id: number }) => b.id)).toEqual([bridgeId]);
    expect(errorOf(await call('GET', `room/${room}/bridge/nope`))).toEqual(notFound('Bridge nope not found'));
  });

  it('answers bad input with 400 naming the field and the rule, and writes nothing', async () => {
    const room = await createRoom();
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ url: 'https://x.example.com/' }, 'kind: is required'],
      [{ kind: 'irc', url: 'https://x.example.com/' }, 'kind: must be one of slack, mattermost, discord, teams, googlechat, rocketchat, matrix (got "irc")'],
      [{ kind: 'slack' }, 'url: is required'],
      [{ kind: 'slack', url: 'ftp://x.example.com/' }, /^url: must be an http\(s\) URL/],
      [{ kind: 'slack', url: 'http://10.1.2.3/hook' }, /^url: cannot be delivered to: /],
      [{ kind: 'slack', url: 'https://x.example.com/', events: [] }, /^events: must name at least one of /],
      [{ kind: 'slack', url: 'https://x.example.com/', events: ['room_message', 'room_message'] }, 'events: must not name an event twice (room_message)'],
      [{ kind: 'slack', url: 'https://x.example.com/', events: ['room_lunch'] }, /^events\.0: must be one of /],
      [{ kind: 'slack', url: 'https://x.example.com/', pattern: '(a)\\1' }, /^pattern: /],
      [{ kind: 'slack', url: 'https://x.example.com/', pattern: 'x', events: ['room_enter'] }, 'pattern: filters message text: it needs room_message among events'],
      [{ kind: 'slack', url: 'https://x.example.com/', name: 'n'.repeat(101) }, 'name: must be at most 100 characters (got 101)'],
      [{ kind: 'matrix', url: 'https://m.example.org' }, /^matrix: is required for kind matrix/],
      [{ kind: 'matrix', url: 'https://m.example.org', matrix: { room_id: 'general', access_token: 't' } }, /^matrix\.room_id: must be a Matrix room id/],
      [{ kind: 'matrix', url: 'https://m.example.org', matrix: { room_id: '!a:b.org' } }, 'matrix.access_token: is required to create a Matrix bridge'],
      [{ kind: 'slack', url: 'https://x.example.com/', matrix: { room_id: '!a:b.org', access_token: 't' } }, 'matrix: applies to kind matrix only (kind is slack)'],
      [{ kind: 'discord', url: 'https://x.example.com/', inbound: { enabled: true } }, /^inbound\.enabled: Discord has no outgoing webhooks/],
      [{ kind: 'slack', url: 'https://x.example.com/', inbound: { enabled: true, token: 'x'.repeat(257) } }, 'inbound.token: must be 1 to 256 characters (got 257)'],
      [{ kind: 'teams', url: 'https://x.example.com/', inbound: { enabled: true, hmac_secret: 'not base64!' } }, 'inbound.hmac_secret: must be base64 (Teams shows the security token so)'],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', `room/${room}/bridge`, { body });
      expect({ body, ...errorOf(res) }).toEqual({ body, ...bad(message) });
    }
    expect((await db.query('SELECT count(*)::int AS n FROM webhooks WHERE room_id = $1', [room]))[0].n).toBe(0);
  });

  it('keeps a room to its limit of bridges', async () => {
    const room = await createRoom();
    for (let i = 0; i < 10; i++) await create(room, { kind: 'slack', url: `https://x.example.com/${i}` });
    expect(errorOf(await call('POST', `room/${room}/bridge`, { body: { kind: 'slack', url: 'https://x.example.com/11' } })))
      .toEqual(bad('The request is invalid: at most 10 bridges per room, and this room has 10: delete one first'));
  });

  it('is managed by the operator\'s CLI through the service, with the same rules and audit lines', async () => {
    const room = await createRoom(`CLI bridged ${n++}`);
    const client = stack.gateway!.get(RoomsClient);
    const cli = new BridgeCommands({ served: async () => true, request: (c, p) => client.send(c, p) }, 'rooms', BASE);
    const added = await cli.add({ room: String(room), kind: 'rocketchat', url: 'https://rc.example.com/hooks/abc?token=x', inbound: true, inboundToken: 'rc-token' });
    expect(added).toMatchObject({ room, kind: 'rocketchat', url: 'https://rc.example.com/hooks/***?token=***', inbound: true, inboundUrl: expect.stringMatching(INBOUND_URL) });
    expect(await cli.list(String(room))).toEqual([{ ...added, inboundUrl: undefined }].map(({ inboundUrl: _u, ...l }) => l));
    expect((await cli.show(String(room), added.id)).id).toBe(added.id);
    await expect(cli.add({ room: String(room), kind: 'discord', url: 'https://d.example.com/x', inbound: true }))
      .rejects.toThrow(/^--inbound: Discord has no outgoing webhooks/);
    await cli.remove(String(room), added.id);
    await expect(cli.show(String(room), added.id)).rejects.toThrow(`no bridge ${added.id} in room ${room}`);
    const lines = await auditOf(added.id);
    expect(lines.map((l) => [l.action, (l as unknown as { actor: { type: string } }).actor.type])).toEqual([['bridge.created', 'cli'], ['bridge.deleted', 'cli']]);
  });

  it('is a webhook for lost access and room deletion: disabled when its creator leaves a private room, gone with its room', async () => {
    const memberId = await s.createUser(`Bridger ${n++}`);
    const memberToken = await s.personalToken(memberId);
    const made = await call('POST', 'room', { body: { name: `Private bridged ${n++}`, privacy: 'private' } });
    const room = made.json.id as number;
    expect((await call('PUT', `room/${room}/member/${memberId}`)).status).toBe(204);
    const res = await v2(stack.baseUrl, 'POST', `room/${room}/bridge`, { token: memberToken, body: { kind: 'slack', url: 'https://hooks.slack.com/services/P/Q/r' } });
    expect(res.status).toBe(201);
    const id = res.json.id as number;

    expect((await call('DELETE', `room/${room}/member/${memberId}`)).status).toBe(204);
    const got = await call('GET', `room/${room}/bridge/${id}`);
    expect(got.json).toMatchObject({ enabled: false, disabled_reason: 'creator_lost_access' });
    expect((await registrations()).find((r) => r.id === id)).toMatchObject({ enabled: false, bridge: { kind: 'slack' } });
    const disabled = (await auditOf(id)).find((l) => l.action === 'bridge.disabled');
    expect(disabled).toMatchObject({ target: { type: 'bridge', id, name: 'Slack bridge' }, details: { roomId: room, reason: 'creator_lost_access' } });
    expect(JSON.stringify(disabled)).not.toContain('hooks.slack.com');

    expect((await call('DELETE', `room/${room}`)).status).toBe(204);
    expect((await db.query('SELECT count(*)::int AS n FROM webhooks WHERE id = $1', [id]))[0].n).toBe(0);
  });

  it('is in the OpenAPI document with its schemas and who may call it', async () => {
    const res = await fetch(`${stack.baseUrl}/docs/api/v2/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, Record<string, { description?: string; requestBody?: unknown; 'x-access'?: unknown }>> };
    const list = doc.paths['/v2/room/{room}/bridge'];
    const one = doc.paths['/v2/room/{room}/bridge/{id}'];
    expect(Object.keys(list).sort()).toEqual(['get', 'post']);
    expect(Object.keys(one).sort()).toEqual(['delete', 'get', 'put']);
    expect(list.post.description).toMatch(/Who may/);
    expect(list.post.requestBody).toBeDefined();
    expect(one.put['x-access']).toMatchObject({ may: { group_admin: 'yes', room_owner: 'yes', creator: 'own' } });
  });

  // Last: it seals every secret of the suite's database under a new key.
  it('keeps its secrets out of the removed forms, and seals them again under a new key (the inbound ones without a registration change)', async () => {
    const room = await createRoom();
    const matrix = (await create(room, { kind: 'matrix', url: 'https://m.example.org', matrix: { room_id: '!r:m.example.org', access_token: 'syt_rotate' } })).json.id as number;
    const teams = (await create(room, { kind: 'teams', url: 'https://t.example.com/h', inbound: { enabled: true, hmac_secret: 'c2VjcmV0' } })).json.id as number;
    expect((await call('PUT', `room/${room}/bridge/${teams}`, { body: { kind: 'teams', url: 'https://t.example.com/h2', inbound: { enabled: true } } })).status).toBe(200);
    const removed = await db.query('SELECT inbound_hmac_secret FROM webhooks_removed WHERE id = $1', [teams]);
    expect(removed.length).toBeGreaterThan(0);
    expect(removed.every((r: { inbound_hmac_secret: string | null }) => r.inbound_hmac_secret === null)).toBe(true);

    const versionOf = async (id: number) => (await db.query('SELECT created_version::text AS v FROM webhooks WHERE id = $1', [id]))[0].v as string;
    const before = { matrix: await versionOf(matrix), teams: await versionOf(teams) };
    const next = new SecretBox(parseSecretKeys(`next:${Buffer.alloc(32, 'bridges next key').toString('base64')},${TEST_SECRETS_KEYS}`));
    const report = await resealSecrets(new SecretsRepository(db), next);
    // Every bridge secret of the suite (its other tests' too), each sealed once more.
    // The removed forms' Matrix tokens include those the reseal of the live ones just ended;
    // the inbound URL keys are those kept sealed in the creates' and puts' stored replies.
    for (const place of ['bridge_matrix_tokens', 'bridge_inbound_tokens', 'bridge_inbound_hmac_secrets', 'removed_bridge_matrix_tokens', 'bridge_inbound_keys'] as const) {
      expect(report.resealed[place]).toBeGreaterThanOrEqual(1);
      expect(report.resealed[place]).toBe(report.total[place]);
    }
    expect(Object.values(report.unreadable).every((n) => n === 0)).toBe(true);
    const [m] = await db.query('SELECT matrix_access_token FROM webhooks WHERE id = $1', [matrix]);
    const [t] = await db.query('SELECT inbound_hmac_secret FROM webhooks WHERE id = $1', [teams]);
    expect(SecretBox.keyIdOf(m.matrix_access_token)).toBe('next');
    expect(next.open(m.matrix_access_token, secretPurpose.bridgeToken(matrix))).toBe('syt_rotate');
    expect(next.open(t.inbound_hmac_secret, secretPurpose.bridgeInbound(teams, 'hmac_secret'))).toBe('c2VjcmV0');
    // The dispatchers use the Matrix token: its new seal reaches them; the inbound secret is none of theirs.
    expect(await versionOf(matrix)).not.toBe(before.matrix);
    expect(await versionOf(teams)).toBe(before.teams);
  });
});
