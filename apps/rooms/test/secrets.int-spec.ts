import { randomBytes, randomUUID } from 'node:crypto';
import { parseSecretKeys, SecretBox, secretPurpose } from '@app/common';
import { CreateBridgeV1, CreateRoomV1, CreateWebhookV1, DeleteRoomV1, DeleteWebhookV1, GetBridgeV1, GetWebhookV1, ListRegistrationsV1, PutWebhookV1 } from '@app/contracts';
import { ACTOR, cliOf, RawCommands, RoomsRpc, RoomsStack, sql, startStack, TEST_SECRETS_KEYS } from './support';

/*
 * `cli secrets rotate-key` and the rooms service's start: every stored secret (here, REST
 * webhooks' and the command log's) sealed under the first key of SECRETS_KEYS, values kept
 * in clear (from before secrets were sealed) included; safe to repeat; a value no key opens
 * is reported by key id and fails the command. Needs `npm run build` (the built CLI).
 */
describe('secrets at rest: rotating the key (real Postgres, the built CLI)', () => {
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  const entry = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
  const next = entry('next');
  const rotated = `${next},${TEST_SECRETS_KEYS}`;
  const secrets = new Map<number, string>();

  const stored = () => sql<{ id: number; secret: string }>(stack.databaseUrl, 'SELECT id, secret FROM webhooks ORDER BY id');
  const version = async () => (await sql<{ value: string }>(stack.databaseUrl, 'SELECT value FROM registrations_version'))[0].value;
  const removedForms = async () => (await sql<{ n: number }>(stack.databaseUrl, 'SELECT count(*)::int AS n FROM webhooks_removed'))[0].n;

  beforeAll(async () => {
    stack = await startStack();
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    const owner = await rpc.createUser('Rotator', { isGroupAdmin: true });
    const actor = { ...ACTOR, userId: owner.id };
    const { room } = await rpc.send(CreateRoomV1, { actor, name: 'Rotation', owner: { id: owner.id }, privacy: 'public', topic: '', guestAccess: false });
    for (const path of ['/a', '/b']) {
      const made = await rpc.send(CreateWebhookV1, { actor, room: { id: room.id }, url: `https://receiver.example.com${path}`, event: 'room_enter' });
      secrets.set(made.webhook.id, made.secret!);
    }
    // A value kept in clear, as a rooms service from before secrets were sealed left it
    // (a change of the secret alone is no registration change: no new version).
    const [legacy] = [...secrets.keys()];
    const before = await version();
    await sql(stack.databaseUrl, 'UPDATE webhooks SET secret = $2 WHERE id = $1', [legacy, secrets.get(legacy)]);
    expect(await version()).toBe(before);
    // A URL kept in clear too (a change of the URL is a registration change: its form, sealed, is kept).
    await sql(stack.databaseUrl, `UPDATE webhooks SET url = 'https://receiver.example.com/a' WHERE id = $1`, [legacy]);
  });

  afterAll(async () => {
    await rpc?.close();
    await stack?.stop();
  });

  it('re-encrypts every stored secret under the new first key, says how many, and changes no registration', async () => {
    const before = { version: await version(), removed: await removedForms() };
    const run = await cliOf(stack, { SECRETS_KEYS: rotated })('secrets', 'rotate-key');
    expect(run).toMatchObject({ status: 0, stderr: '' });
    // Two webhooks (one of them in clear), and the two creates' replies in the command log; their
    // URLs (one in clear), the form the URL's change kept, and the URLs in the replies.
    expect(run.stdout).toBe('re-encrypted 9 secret(s) under key next (webhooks 2, command replies 2, webhook and bridge URLs 2, '
      + 'removed webhooks\' and bridges\' URLs 1, webhook URLs in command replies 2); 9 of 9 stored secret(s) are now under it\n');
    const box = new SecretBox(parseSecretKeys(rotated));
    for (const { id, secret } of await stored()) {
      expect(SecretBox.keyIdOf(secret)).toBe('next');
      expect(box.open(secret, secretPurpose.webhook(id))).toBe(secrets.get(id));
    }
    for (const { id, url } of await sql<{ id: number; url: string }>(stack.databaseUrl, 'SELECT id, url FROM webhooks ORDER BY id')) {
      expect(box.open(url, secretPurpose.webhookUrl(id))).toMatch(/^https:\/\/receiver\.example\.com\/[ab]$/);
    }
    // Sealing a URL again is no registration change either (no new version, no removed form).
    expect({ version: await version(), removed: await removedForms() }).toEqual(before);
    for (const s of secrets.values()) expect(run.stdout + run.stderr).not.toContain(s);
  });

  it('is safe to repeat: nothing left to re-encrypt', async () => {
    const before = await stored();
    const run = await cliOf(stack, { SECRETS_KEYS: rotated })('secrets', 'rotate-key');
    expect(run).toMatchObject({ status: 0, stdout: 're-encrypted 0 secret(s) under key next; 9 of 9 stored secret(s) are now under it\n' });
    expect(await stored()).toEqual(before);
  });

  it('fails, naming the key it lacks, when the old key was dropped too soon; never prints a key', async () => {
    const other = entry('other');
    const run = await cliOf(stack, { SECRETS_KEYS: other })('secrets', 'rotate-key');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/9 could not be decrypted \(webhooks 2, command replies 2, webhook and bridge URLs 2, removed webhooks' and bridges' URLs 1, webhook URLs in command replies 2\): sealed with key\(s\) next, which SECRETS_KEYS does not hold/);
    expect(run.stdout + run.stderr).not.toContain(other.split(':')[1]);
    const missing = await cliOf(stack, { SECRETS_KEYS: '' })('secrets', 'rotate-key');
    expect(missing.status).toBe(78);
    expect(missing.stderr).toMatch(/SECRETS_KEYS: must be set/);
  });

  it('the rooms service seals under its first key on start, as rotate-key does', async () => {
    const newest = entry('newest');
    const replica = await stack.startReplica({ SECRETS_KEYS: `${newest},${rotated}` });
    expect(replica).toBeDefined();
    for (const { secret } of await stored()) expect(SecretBox.keyIdOf(secret)).toBe('newest');
  });
});

/*
 * The secrets of bridges that outlive their row or are kept only in a reply: a deleted
 * Matrix bridge's token (its form in webhooks_removed, for its room's room_deleted) and a
 * new inbound URL's key (sealed in the create's stored reply, for a redelivered create).
 * After a rotation the old key can go: nothing is left that only it opens.
 */
describe('secrets at rest: retiring the old key after a rotation, with bridges (real Postgres, the built CLI)', () => {
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  let raw: RawCommands;
  const entry = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
  const next = entry('next');
  const createId = randomUUID();
  let create: Record<string, unknown>;
  let inboundKey: string;
  let deletedBridge: number;

  beforeAll(async () => {
    stack = await startStack();
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    raw = await RawCommands.open(stack.amqpUrl, stack.namespace);
    const owner = await rpc.createUser('Retirer', { isGroupAdmin: true });
    const actor = { ...ACTOR, userId: owner.id };
    const room = async (name: string) => (await rpc.send(CreateRoomV1, { actor, name, owner: { id: owner.id }, privacy: 'public', topic: '', guestAccess: false })).room;
    // A Matrix bridge deleted with its room: its form (with its token) is kept for the room_deleted.
    const doomed = await room('Doomed');
    deletedBridge = (await rpc.send(CreateBridgeV1, {
      actor, room: { id: doomed.id }, kind: 'matrix', url: 'https://m.example.org', events: ['room_message', 'room_deleted'],
      matrix: { room_id: '!r:m.example.org', access_token: 'syt_deleted_bridge' },
    })).bridge.id;
    await rpc.send(DeleteRoomV1, { actor, room: { id: doomed.id } });
    // A bridge with inbound, made by a command whose reply (with the URL's key) is kept.
    const kept = await room('Kept');
    create = { actor, room: { id: kept.id }, kind: 'slack', url: 'https://hooks.slack.example.com/services/T1/B1/x', inbound: { enabled: true } };
    const made = await raw.send(CreateBridgeV1.pattern, create, { messageId: createId });
    inboundKey = (made as { ok: { inboundKey: string } }).ok.inboundKey;
    expect(inboundKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  afterAll(async () => {
    await raw?.close();
    await rpc?.close();
    await stack?.stop();
  });

  it('rotate-key re-encrypts them and names them; then a rooms service with the new key alone opens every stored secret', async () => {
    const [removed] = await sql<{ matrix_access_token: string }>(stack.databaseUrl,
      'SELECT matrix_access_token FROM webhooks_removed WHERE id = $1 AND matrix_access_token IS NOT NULL', [deletedBridge]);
    expect(SecretBox.keyIdOf(removed.matrix_access_token)).toBe('test');

    const rotation = await cliOf(stack, { SECRETS_KEYS: `${next},${TEST_SECRETS_KEYS}` })('secrets', 'rotate-key');
    expect(rotation).toMatchObject({ status: 0, stderr: '' });
    expect(rotation.stdout).toMatch(/removed bridges' Matrix tokens 1\b/);
    expect(rotation.stdout).toMatch(/bridges' inbound URL keys in command replies 1\b/);
    expect(rotation.stdout).not.toContain('could not be decrypted');
    for (const s of ['syt_deleted_bridge', inboundKey]) expect(rotation.stdout).not.toContain(s);

    // The old key retired: the service keeps only the new one (on start it finds nothing to do).
    await stack.rooms.close();
    await stack.startReplica({ SECRETS_KEYS: next });
    const retired = await cliOf(stack, { SECRETS_KEYS: next })('secrets', 'rotate-key');
    expect(retired).toMatchObject({ status: 0, stderr: '' });
    expect(retired.stdout).toMatch(/^re-encrypted 0 secret\(s\) under key next; (\d+) of \1 stored secret\(s\) are now under it\n$/);

    // What the dispatchers do for the deleted room's room_deleted: open the removed form's token.
    const onlyNew = new SecretBox(parseSecretKeys(next));
    const forms = await sql<{ matrix_access_token: string }>(stack.databaseUrl,
      'SELECT matrix_access_token FROM webhooks_removed WHERE id = $1 AND matrix_access_token IS NOT NULL', [deletedBridge]);
    expect(forms.length).toBeGreaterThan(0);
    for (const f of forms) expect(onlyNew.open(f.matrix_access_token, secretPurpose.bridgeToken(deletedBridge))).toBe('syt_deleted_bridge');

    // A redelivered create answers its first reply, the inbound URL's key included.
    const again = await raw.send(CreateBridgeV1.pattern, create, { messageId: createId });
    expect(again).toMatchObject({ ok: { inboundKey } });
  });
});

/*
 * A webhook's or bridge's URL is its credential (a Slack incoming webhook's path, a key in a
 * query): sealed in its row, in the forms webhooks_removed keeps, in the command log's
 * replies, and masked in the audit log; shown whole to its creator, sent sealed to the
 * dispatchers; re-encrypted by a rotation like every secret.
 */
describe('secrets at rest: webhook and bridge URLs (real Postgres, the built CLI)', () => {
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  let raw: RawCommands;
  const entry = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
  const next = entry('next');
  const KEY = 'abc-url-key-7Q';
  const SLACK_SECRET = 'SECRETslackPath9';
  const keyed = `https://receiver.example.com/hooks/in?key=${KEY}`;
  const slack = `https://hooks.slack.example.com/services/T9/B9/${SLACK_SECRET}`;
  const createId = randomUUID();
  let actor: { label: string; userId: number };
  let create: Record<string, unknown>;
  let roomId: number;
  let webhookId: number;
  let bridgeId: number;

  const everything = async () => JSON.stringify([
    await sql(stack.databaseUrl, 'SELECT url FROM webhooks'),
    await sql(stack.databaseUrl, 'SELECT url FROM webhooks_removed'),
    await sql(stack.databaseUrl, 'SELECT reply FROM applied_commands'),
    await sql(stack.databaseUrl, 'SELECT target_name, details FROM audit_log'),
  ]);

  beforeAll(async () => {
    stack = await startStack();
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    raw = await RawCommands.open(stack.amqpUrl, stack.namespace);
    const owner = await rpc.createUser('Sealer', { isGroupAdmin: true });
    actor = { ...ACTOR, userId: owner.id };
    roomId = (await rpc.send(CreateRoomV1, { actor, name: 'Urls', owner: { id: owner.id }, privacy: 'public', topic: '', guestAccess: false })).room.id;
    create = { actor, room: { id: roomId }, url: keyed, event: 'room_message', name: '' };
    const made = await raw.send(CreateWebhookV1.pattern, create, { messageId: createId }) as { ok: { webhook: { id: number; url: string } } };
    expect(made.ok.webhook.url).toBe(keyed);
    webhookId = made.ok.webhook.id;
    bridgeId = (await rpc.send(CreateBridgeV1, { actor, room: { id: roomId }, kind: 'slack', url: slack })).bridge.id;
    // Forms in webhooks_removed: a webhook's URL changed by a PUT (the same URL again changes
    // nothing), and a webhook deleted.
    await rpc.send(PutWebhookV1, { actor, room: { id: roomId }, key: 'put', url: `${keyed}&v=1`, event: 'room_enter' });
    await rpc.send(PutWebhookV1, { actor, room: { id: roomId }, key: 'put', url: `${keyed}&v=2`, event: 'room_enter' });
    const gone = await rpc.send(CreateWebhookV1, { actor, room: { id: roomId }, url: `${keyed}&gone=1`, event: 'room_exit' });
    await rpc.send(DeleteWebhookV1, { actor, room: { id: roomId }, webhook: { id: gone.webhook.id } });
  });

  afterAll(async () => {
    await raw?.close();
    await rpc?.close();
    await stack?.stop();
  });

  it('keeps no URL in clear: not in webhooks, their removed forms, the command log\'s replies nor the audit log', async () => {
    const urls = await sql<{ url: string }>(stack.databaseUrl, 'SELECT url FROM webhooks UNION ALL SELECT url FROM webhooks_removed');
    expect(urls.length).toBeGreaterThanOrEqual(5);
    for (const { url } of urls) expect(SecretBox.keyIdOf(url)).toBe('test');
    const text = await everything();
    for (const clear of [KEY, SLACK_SECRET, 'receiver.example.com/hooks/in', 'services/T9']) expect(text).not.toContain(clear);
    // The audit log names the webhook's URL masked as a bridge's.
    const [line] = await sql<{ details: { url: string } }>(stack.databaseUrl, `SELECT details FROM audit_log WHERE action = 'webhook.created' AND target_id = $1`, [webhookId]);
    expect(line.details.url).toBe('https://receiver.example.com/hooks/***?key=***');
  });

  it('shows the URL whole to the webhook\'s creator, a bridge\'s masked, and sends both sealed to the dispatchers', async () => {
    expect((await rpc.send(GetWebhookV1, { actor, room: { id: roomId }, webhook: { id: webhookId } })).webhook.url).toBe(keyed);
    expect((await rpc.send(GetBridgeV1, { actor, room: { id: roomId }, id: bridgeId })).bridge.url).toBe('https://hooks.slack.example.com/services/***');
    // As the dispatchers ask (they open the URLs themselves); one of the version before is sent them opened.
    const { registrations, removed } = await rpc.send(ListRegistrationsV1, { sealedUrls: true });
    const box = new SecretBox(parseSecretKeys(TEST_SECRETS_KEYS));
    const opened = [...registrations, ...removed].map((r) => box.open(r.url, secretPurpose.webhookUrl(r.id)));
    expect(opened).toEqual(expect.arrayContaining([keyed, slack, `${keyed}&v=1`, `${keyed}&v=2`, `${keyed}&gone=1`]));
    const asOld = await rpc.send(ListRegistrationsV1, {});
    expect([...asOld.registrations, ...asOld.removed].map((r) => r.url)).toEqual(expect.arrayContaining([keyed, slack, `${keyed}&gone=1`]));
  });

  it('answers a redelivered create its first reply: the URL whole', async () => {
    const again = await raw.send(CreateWebhookV1.pattern, create, { messageId: createId }) as { ok: { webhook: { id: number; url: string } } };
    expect(again.ok.webhook).toMatchObject({ id: webhookId, url: keyed });
  });

  it('rotate-key re-encrypts them without a registration change; a rooms service with the new key alone reads every one', async () => {
    const version = async () => (await sql<{ value: string }>(stack.databaseUrl, 'SELECT value FROM registrations_version'))[0].value;
    const removedForms = async () => (await sql<{ n: number }>(stack.databaseUrl, 'SELECT count(*)::int AS n FROM webhooks_removed'))[0].n;
    const before = { version: await version(), removed: await removedForms() };
    const rotation = await cliOf(stack, { SECRETS_KEYS: `${next},${TEST_SECRETS_KEYS}` })('secrets', 'rotate-key');
    expect(rotation).toMatchObject({ status: 0, stderr: '' });
    expect(rotation.stdout).toMatch(/webhook and bridge URLs 3\b/);
    expect(rotation.stdout).toMatch(/removed webhooks' and bridges' URLs [1-9]/);
    expect(rotation.stdout).toMatch(/webhook URLs in command replies [1-9]/);
    expect(rotation.stdout).not.toContain('could not be decrypted');
    expect({ version: await version(), removed: await removedForms() }).toEqual(before);

    await stack.rooms.close();
    const replica = await stack.startReplica({ SECRETS_KEYS: next });
    expect(replica).toBeDefined();
    const retired = await cliOf(stack, { SECRETS_KEYS: next })('secrets', 'rotate-key');
    expect(retired).toMatchObject({ status: 0, stderr: '' });
    expect(retired.stdout).toMatch(/^re-encrypted 0 secret\(s\) under key next; (\d+) of \1 stored secret\(s\) are now under it\n$/);
    const onlyNew = new SecretBox(parseSecretKeys(next));
    for (const { id, url } of await sql<{ id: number; url: string }>(stack.databaseUrl, 'SELECT id, url FROM webhooks UNION ALL SELECT id, url FROM webhooks_removed')) {
      expect(onlyNew.open(url, secretPurpose.webhookUrl(id))).toMatch(/^https:\/\//);
    }
    const again = await raw.send(CreateWebhookV1.pattern, create, { messageId: createId }) as { ok: { webhook: { url: string } } };
    expect(again.ok.webhook.url).toBe(keyed);
    expect(await everything()).not.toContain(KEY);
  });
});
