import {
  Actor, CreateRoomV1, CreateWebhookV1, DeleteWebhookV1, ListRegistrationChangesV1, ListRegistrationsV1, PutWebhookV1, WebhookRegistration,
} from '@app/contracts';
import { openWebhookUrl, parseSecretKeys, SecretBox } from '@app/common';
import { RoomsRpc, RoomsStack, startStack, TEST_SECRETS_KEYS } from './support';

/**
 * The dispatchers' reads of the registrations: every one (ListRegistrationsV1, at start and
 * hourly) and the changes since the version a dispatcher's index holds
 * (ListRegistrationChangesV1, after each change), which must tell the same story.
 */
describe('registrations and their changes for the dispatchers (real Postgres, RabbitMQ)', () => {
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  let actor: Actor;
  let roomId: number;

  beforeAll(async () => {
    stack = await startStack();
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    const owner = await rpc.createUser('Registrations Owner');
    actor = { label: 'registrations-test', userId: owner.id };
    roomId = (await rpc.send(CreateRoomV1, {
      actor, name: 'Registrations', owner: { id: owner.id }, privacy: 'public', topic: '', guestAccess: false,
    })).room.id;
  });
  afterAll(async () => {
    await rpc?.close();
    await stack?.stop();
  });

  const all = () => rpc.send(ListRegistrationsV1, {});
  const changesSince = (since: number) => rpc.send(ListRegistrationChangesV1, { since });
  const create = async (name: string, key?: string) => (await rpc.send(CreateWebhookV1, {
    actor, room: { id: roomId }, url: `https://receiver.example.com/${name}`, event: 'room_message', name, ...(key ? { key } : {}),
  })).webhook;
  // The URLs travel sealed: the dispatcher opens them as it loads them.
  const box = new SecretBox(parseSecretKeys(TEST_SECRETS_KEYS));
  const forms = (regs: WebhookRegistration[]) => regs.map((r) => `${r.name}@${openWebhookUrl(box, r.url, r.id).split('/').pop()}`);

  it('answers the forms written and removed since a version, and the version of that snapshot', async () => {
    const start = (await all()).version;
    const a = await create('a', 'a');
    const b = await create('b');

    const first = await changesSince(start);
    expect(forms(first.registrations)).toEqual(['a@a', 'b@b']);
    expect(first.registrations.every((r) => r.createdVersion! > start && r.removedVersion === undefined)).toBe(true);
    expect(first.registrations[0].secret).toEqual(expect.any(String));
    expect(first.removed).toEqual([]);
    expect(first.version).toBe((await all()).version);
    const mid = first.version;

    // a replaced (PUT, by its key), b deleted, c registered.
    await rpc.send(PutWebhookV1, { actor, room: { id: roomId }, key: 'a', url: 'https://receiver.example.com/a2', event: 'room_message', name: 'a' });
    await rpc.send(DeleteWebhookV1, { actor, room: { id: roomId }, webhook: { id: b.id } });
    const c = await create('c');

    const second = await changesSince(mid);
    const now = await all();
    expect(second.version).toBe(now.version);
    expect(second.version).toBeGreaterThan(mid);
    expect(forms(second.registrations)).toEqual(['a@a2', 'c@c']);
    expect(second.registrations.map((r) => r.id)).toEqual([a.id, c.id]);
    // a's first form and b: in force from before `mid`, ended after it.
    expect(forms(second.removed)).toEqual(['a@a', 'b@b']);
    const [aBefore, bBefore] = second.removed;
    expect(aBefore).toMatchObject({ id: a.id, createdVersion: first.registrations[0].createdVersion, removedVersion: second.registrations[0].createdVersion });
    expect(bBefore).toMatchObject({ id: b.id, removedVersion: expect.any(Number) });
    expect(bBefore.removedVersion!).toBeGreaterThan(mid);

    // Exactly the forms of the whole snapshot written, or ended, after `mid`.
    expect(second.registrations).toEqual(now.registrations.filter((r) => r.createdVersion! > mid));
    expect(second.removed).toEqual(now.removed.filter((r) => r.removedVersion! > mid));

    // Since the start: a's first form was written and replaced, b written and deleted, all after it.
    const whole = await changesSince(start);
    expect(forms(whole.registrations)).toEqual(['a@a2', 'c@c']);
    expect(forms(whole.removed)).toEqual(['a@a', 'b@b']);
    expect(whole.version).toBe(now.version);
  });

  it('answers no forms, and the same version, when nothing changed since', async () => {
    const { version } = await all();
    expect(await changesSince(version)).toEqual({ registrations: [], removed: [], version });
    // A version from the future (none a dispatcher could hold): nothing either.
    expect(await changesSince(version + 1_000)).toEqual({ registrations: [], removed: [], version });
  });

  it('takes a PUT that states a webhook as it is for no change of its form: its sealed URL is kept as stored', async () => {
    const before = await all();
    const a = before.registrations.find((r) => r.key === 'a')!;
    await rpc.send(PutWebhookV1, { actor, room: { id: roomId }, key: 'a', url: 'https://receiver.example.com/a2', event: 'room_message', name: 'a' });
    const since = await changesSince(before.version);
    expect([since.registrations, since.removed]).toEqual([[], []]);
    expect((await all()).registrations.find((r) => r.id === a.id)!.url).toBe(a.url);
  });

  it('answers every registration and every removed form since version 0', async () => {
    const now = await all();
    const since0 = await changesSince(0);
    expect(since0).toEqual(now);
  });

  it('refuses a since that is no version', async () => {
    expect(await rpc.refused(ListRegistrationChangesV1, { since: -1 })).toMatchObject({ code: 'invalid', field: 'since' });
    expect(await rpc.refused(ListRegistrationChangesV1, { since: 1.5 })).toMatchObject({ code: 'invalid', field: 'since' });
    expect(await rpc.refused(ListRegistrationChangesV1, {})).toMatchObject({ code: 'invalid', field: 'since' });
  });
});
