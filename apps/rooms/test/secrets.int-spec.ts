import { randomBytes } from 'node:crypto';
import { parseSecretKeys, SecretBox, secretPurpose } from '@app/common';
import { CreateRoomV1, CreateWebhookV1 } from '@app/contracts';
import { ACTOR, cliOf, RoomsRpc, RoomsStack, sql, startStack, TEST_SECRETS_KEYS } from './support';

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
