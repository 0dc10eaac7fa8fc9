import {
  Actor, AddMemberV1, CreateRoomV1, CreateWebhookV1, DeleteUserV1, EnableWebhookV1, GetRoomEventsV1, GetWebhookV1, ListRegistrationsV1,
  RemoveMemberV1, RoomAccessNarrowedV1, SendNotificationV1, UpdateRoomV1, UpdateUserV1, WebhookRegistrationsChangedV1,
} from '@app/contracts';
import { EventCapture, RoomsRpc, RoomsStack, sql, startStack } from './support';

/**
 * Losing access to a room (issue 34, section 2), as the rooms service applies it: with the
 * change, in its transaction, every webhook the loser created in the room is disabled
 * (`creator_lost_access`, a registration change), the live connections are told
 * (room.access-narrowed), and a reply of such a webhook is refused.
 */
describe('losing access to a room: webhooks disabled with the change, replies refused (real Postgres, RabbitMQ)', () => {
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  let capture: EventCapture;
  let boss: Actor;
  let n = 0;

  beforeAll(async () => {
    stack = await startStack();
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    const owner = await rpc.createUser('Lost Boss', { isGroupAdmin: true });
    boss = { label: 'lost-test', userId: owner.id };
  });
  afterAll(async () => {
    await rpc?.close();
    await capture?.stop();
    await stack?.stop();
  });

  const user = async (name: string, isGroupAdmin = false) => {
    const u = await rpc.createUser(`${name} ${n++}`, { isGroupAdmin });
    return { id: u.id, actor: { label: 'lost-test', userId: u.id } as Actor };
  };
  const room = async (privacy: 'public' | 'private') => (await rpc.send(CreateRoomV1, {
    actor: boss, name: `Lost ${n++}`, owner: { id: boss.userId! }, privacy, topic: '', guestAccess: false,
  })).room;
  const register = async (actor: Actor, roomId: number) =>
    (await rpc.send(CreateWebhookV1, { actor, room: { id: roomId }, url: `https://receiver.example.com/hooks/${n++}`, event: 'room_message', name: `hook ${n}` })).webhook;
  const state = async (roomId: number, id: number) => {
    const w = (await rpc.send(GetWebhookV1, { actor: boss, room: { id: roomId }, webhook: { id } })).webhook;
    return { enabled: w.enabled, reason: w.disabledReason };
  };
  const registered = async (id: number) => (await rpc.send(ListRegistrationsV1, {})).registrations.find((r) => r.id === id);
  const reply = (roomId: number, webhookId: number) => rpc.send(SendNotificationV1, {
    actor: { label: 'hook', roomId }, room: { id: roomId }, message: `reply of ${webhookId}`, messageFormat: 'text', notify: false, color: 'yellow',
    causedBy: { webhookId, deliveryId: `d-${n++}`, depth: 1 },
  });
  const DISABLED = { enabled: false, reason: 'creator_lost_access' };
  const ENABLED = { enabled: true, reason: null };

  it('a member removed from a private room: their webhook there is disabled, another member\'s is not; their replies are refused', async () => {
    const ada = await user('Ada');
    const cy = await user('Cy');
    const r = await room('private');
    for (const u of [ada, cy]) await rpc.send(AddMemberV1, { actor: boss, room: { id: r.id }, user: { id: u.id } });
    const hers = await register(ada.actor, r.id);
    const his = await register(cy.actor, r.id);
    await expect(reply(r.id, hers.id)).resolves.toMatchObject({ messageId: expect.any(String) });

    await rpc.send(RemoveMemberV1, { actor: boss, room: { id: r.id }, user: { id: ada.id } });
    expect(await state(r.id, hers.id)).toEqual(DISABLED);
    expect(await state(r.id, his.id)).toEqual(ENABLED);
    expect((await registered(hers.id))?.enabled).toBe(false);
    await capture.waitFor(WebhookRegistrationsChangedV1.routingKey, (e) => e.payload.roomId === r.id && e.payload.webhookIds.includes(hers.id));
    await capture.waitFor(RoomAccessNarrowedV1.routingKey, (e) => e.payload.roomId === r.id && e.payload.userId === ada.id);

    await expect(reply(r.id, hers.id)).rejects.toMatchObject({ error: { code: 'forbidden', reason: 'not_allowed', field: 'causedBy' } });
    await expect(reply(r.id, his.id)).resolves.toMatchObject({ messageId: expect.any(String) });
    // A reply naming a webhook of another room is refused too.
    const other = await room('public');
    await expect(reply(other.id, his.id)).rejects.toMatchObject({ error: { code: 'forbidden' } });

    // Its creator, still out, may not enable it; nor may the room's owner while the creator is out:
    // their server would get the room's events again.
    await expect(rpc.send(EnableWebhookV1, { actor: ada.actor, room: { id: r.id }, webhook: { id: hers.id } })).rejects.toMatchObject({ error: {} });
    await expect(rpc.send(EnableWebhookV1, { actor: boss, room: { id: r.id }, webhook: { id: hers.id } }))
      .rejects.toMatchObject({ error: { code: 'invalid', field: 'webhook', detail: { problem: expect.stringContaining(`its creator (user ${ada.id}) may not read room ${r.id}`) } } });
    expect(await state(r.id, hers.id)).toEqual(DISABLED);
    // Once she is a member again, the owner may.
    await rpc.send(AddMemberV1, { actor: boss, room: { id: r.id }, user: { id: ada.id } });
    await rpc.send(EnableWebhookV1, { actor: boss, room: { id: r.id }, webhook: { id: hers.id } });
    expect(await state(r.id, hers.id)).toEqual(ENABLED);
    await expect(reply(r.id, hers.id)).resolves.toMatchObject({ messageId: expect.any(String) });
  });

  it('a public room made private: the webhooks of users who are not members are disabled; the owner\'s and members\' are not', async () => {
    const bob = await user('Bob');
    const mia = await user('Mia');
    const r = await room('public');
    const bobs = await register(bob.actor, r.id);
    const boss1 = await register(boss, r.id);
    await rpc.send(UpdateRoomV1, { actor: boss, room: { id: r.id }, privacy: 'private' });
    await rpc.send(AddMemberV1, { actor: boss, room: { id: r.id }, user: { id: mia.id } });
    const mias = await register(mia.actor, r.id);
    expect(await state(r.id, bobs.id)).toEqual(DISABLED);
    expect(await state(r.id, boss1.id)).toEqual(ENABLED);
    expect(await state(r.id, mias.id)).toEqual(ENABLED);
    await capture.waitFor(RoomAccessNarrowedV1.routingKey, (e) => e.payload.roomId === r.id && e.payload.userId === null);
  });

  it('a user deleted: their webhooks in every room are disabled, their live reads refused', async () => {
    const eve = await user('Eve');
    const [a, b] = [await room('public'), await room('public')];
    const [wa, wb] = [await register(eve.actor, a.id), await register(eve.actor, b.id)];
    await rpc.send(DeleteUserV1, { user: { id: eve.id } });
    expect(await state(a.id, wa.id)).toEqual(DISABLED);
    expect(await state(b.id, wb.id)).toEqual(DISABLED);
    await capture.waitFor(RoomAccessNarrowedV1.routingKey, (e) => e.payload.roomId === null && e.payload.userId === eve.id);
    // What a live stream's re-check asks: refused for a deleted user.
    await expect(rpc.send(GetRoomEventsV1, { room: { id: a.id }, actor: eve.actor, after: null, limit: 0 })).rejects.toMatchObject({ error: { code: 'not_found' } });
  });

  it('a group admin demoted: their webhooks in private rooms they are not a member of are disabled, the others are not', async () => {
    const dan = await user('Dan', true);
    const closed = await room('private');
    const joined = await room('private');
    const open = await room('public');
    await rpc.send(AddMemberV1, { actor: boss, room: { id: joined.id }, user: { id: dan.id } });
    const [wc, wj, wo] = [await register(dan.actor, closed.id), await register(dan.actor, joined.id), await register(dan.actor, open.id)];
    // A change that is no demotion changes nothing.
    await rpc.send(UpdateUserV1, { user: { id: dan.id }, title: 'still admin' });
    expect(await state(closed.id, wc.id)).toEqual(ENABLED);

    await rpc.send(UpdateUserV1, { user: { id: dan.id }, isGroupAdmin: false });
    expect(await state(closed.id, wc.id)).toEqual(DISABLED);
    expect(await state(joined.id, wj.id)).toEqual(ENABLED);
    expect(await state(open.id, wo.id)).toEqual(ENABLED);
    await capture.waitFor(RoomAccessNarrowedV1.routingKey, (e) => e.payload.roomId === null && e.payload.userId === dan.id);
    await expect(reply(closed.id, wc.id)).rejects.toMatchObject({ error: { code: 'forbidden' } });
    await expect(reply(open.id, wo.id)).resolves.toMatchObject({ messageId: expect.any(String) });
  });

  it('revokes the signed file links of the private rooms the loser could read, with the change: a deleted user\'s, then every one for a demoted admin', async () => {
    const revokedAt = async (...ids: number[]) => {
      const rows = await sql<{ id: number; at: Date | null }>(stack.databaseUrl, 'SELECT id, file_links_revoked_at AS at FROM rooms WHERE id = ANY($1::int[])', [ids]);
      return ids.map((id) => rows.find((r) => r.id === id)!.at);
    };
    const fay = await user('Fay');
    const [theirs, others, open] = [await room('private'), await room('private'), await room('public')];
    await rpc.send(AddMemberV1, { actor: boss, room: { id: theirs.id }, user: { id: fay.id } });
    expect(await revokedAt(theirs.id, others.id, open.id)).toEqual([null, null, null]);

    const before = new Date();
    await rpc.send(DeleteUserV1, { user: { id: fay.id } });
    const [t, o, p] = await revokedAt(theirs.id, others.id, open.id);
    // Only the private room she could read; a public room's files are served by URL alone.
    expect(t!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
    expect([o, p]).toEqual([null, null]);

    const gus = await user('Gus', true);
    await rpc.send(UpdateUserV1, { user: { id: gus.id }, isGroupAdmin: false });
    const [t2, o2, p2] = await revokedAt(theirs.id, others.id, open.id);
    // A group admin read every private room: all of them, later than before (never back in time).
    expect(t2!.getTime()).toBeGreaterThan(t!.getTime());
    expect(o2).not.toBeNull();
    expect(p2).toBeNull();
  });
});
