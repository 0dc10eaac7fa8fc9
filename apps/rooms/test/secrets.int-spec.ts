import { randomBytes, randomUUID } from 'node:crypto';
import { parseSecretKeys, SecretBox, secretPurpose } from '@app/common';
import { CreateBridgeV1, CreateRoomV1, CreateWebhookV1, DeleteRoomV1 } from '@app/contracts';
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
  });

  afterAll(async () => {
    await rpc?.close();
    await stack?.stop();
  });

  it('re-encrypts every stored secret under the new first key, says how many, and changes no registration', async () => {
    const before = { version: await version(), removed: await removedForms() };
    const run = await cliOf(stack, { SECRETS_KEYS: rotated })('secrets', 'rotate-key');
    expect(run).toMatchObject({ status: 0, stderr: '' });
    // Two webhooks (one of them in clear), and the two creates' replies in the command log.
    expect(run.stdout).toBe('re-encrypted 4 secret(s) under key next (webhooks 2, command replies 2); 4 of 4 stored secret(s) are now under it\n');
    const box = new SecretBox(parseSecretKeys(rotated));
    for (const { id, secret } of await stored()) {
      expect(SecretBox.keyIdOf(secret)).toBe('next');
      expect(box.open(secret, secretPurpose.webhook(id))).toBe(secrets.get(id));
    }
    expect({ version: await version(), removed: await removedForms() }).toEqual(before);
    for (const s of secrets.values()) expect(run.stdout + run.stderr).not.toContain(s);
  });

  it('is safe to repeat: nothing left to re-encrypt', async () => {
    const before = await stored();
    const run = await cliOf(stack, { SECRETS_KEYS: rotated })('secrets', 'rotate-key');
    expect(run).toMatchObject({ status: 0, stdout: 're-encrypted 0 secret(s) under key next; 4 of 4 stored secret(s) are now under it\n' });
    expect(await stored()).toEqual(before);
  });

  it('fails, naming the key it lacks, when the old key was dropped too soon; never prints a key', async () => {
    const other = entry('other');
    const run = await cliOf(stack, { SECRETS_KEYS: other })('secrets', 'rotate-key');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/4 could not be decrypted \(webhooks 2, command replies 2\): sealed with key\(s\) next, which SECRETS_KEYS does not hold/);
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
