import { Actor, CreateRoomV1, CreateWebhookV1, EnableWebhookV1, GetWebhookV1, ReportWebhookHealthV1 } from '@app/contracts';
import { RoomsRpc, RoomsStack, startStack } from './support';

/**
 * GET of one webhook (also the access check of every request of its delivery log): the room
 * and the webhook are read in one statement, and the answers keep the order of the reads
 * they replaced: no such room, a room the actor may not use, no such webhook in it.
 */
describe('one webhook of a room, read with its room (real Postgres, RabbitMQ)', () => {
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  let ann: Actor;
  let bob: Actor;
  let n = 0;

  beforeAll(async () => {
    stack = await startStack();
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    ann = { label: 'ann', userId: (await rpc.createUser('Get Ann')).id };
    bob = { label: 'bob', userId: (await rpc.createUser('Get Bob')).id };
  });
  afterAll(async () => {
    await rpc?.close();
    await stack?.stop();
  });

  const createRoom = async (name = `Get Room ${n++}`) => (await rpc.send(CreateRoomV1, {
    actor: ann, name, owner: { id: ann.userId! }, privacy: 'public', topic: '', guestAccess: false,
  })).room;
  const register = async (actor: Actor, roomId: number, key?: string) => (await rpc.send(CreateWebhookV1, {
    actor, room: { id: roomId }, url: `https://receiver.example.com/hooks/${n++}`, event: 'room_message', name: `hook ${n}`, ...(key ? { key } : {}),
  })).webhook;

  it('answers the webhook by id, and by the room\'s name in any case', async () => {
    const room = await createRoom('Get By Name');
    const hook = await register(ann, room.id);

    const byId = await rpc.send(GetWebhookV1, { actor: ann, room: { id: room.id }, webhook: { id: hook.id } });
    const byName = await rpc.send(GetWebhookV1, { actor: ann, room: { name: 'get by NAME' }, webhook: { id: hook.id } });

    expect(byId.webhook).toEqual(hook);
    expect(byName.webhook).toEqual(hook);
  });

  it('answers a key with the caller\'s own webhook: another user\'s of the same key is not theirs', async () => {
    const room = await createRoom();
    const anns = await register(ann, room.id, 'deploys');
    const bobs = await register(bob, room.id, 'deploys');

    expect((await rpc.send(GetWebhookV1, { actor: ann, room: { id: room.id }, webhook: { key: 'deploys' } })).webhook.id).toBe(anns.id);
    expect((await rpc.send(GetWebhookV1, { actor: bob, room: { id: room.id }, webhook: { key: 'deploys' } })).webhook.id).toBe(bobs.id);
    expect(await rpc.refused(GetWebhookV1, { actor: { label: 'nobody' }, room: { id: room.id }, webhook: { key: 'deploys' } }))
      .toMatchObject({ code: 'not_found', reason: 'webhook_not_found' });
  });

  it('shows the health the dispatchers reported', async () => {
    const room = await createRoom();
    const hook = await register(ann, room.id);
    const at = new Date(Date.now() - 60_000).toISOString();
    await rpc.send(ReportWebhookHealthV1, { reports: [{
      webhookId: hook.id, lastSuccessAt: at, failuresAfterSuccess: 0, firstFailureAt: null, lastFailureAt: null, lastError: null,
    }] });

    const { webhook } = await rpc.send(GetWebhookV1, { actor: ann, room: { id: room.id }, webhook: { id: hook.id } });

    expect(webhook.health).toMatchObject({ lastSuccessAt: at, consecutiveFailures: 0, failingSince: null });
  });

  it('answers in order: no such room, then a room token outside its room, then no such webhook', async () => {
    const room = await createRoom();
    const other = await createRoom();
    const hook = await register(ann, room.id);
    const roomToken: Actor = { label: 'room token', roomId: other.id };

    expect(await rpc.refused(GetWebhookV1, { actor: ann, room: { id: 2_000_000_000 }, webhook: { id: hook.id } }))
      .toMatchObject({ code: 'not_found', reason: 'room_not_found' });
    expect(await rpc.refused(GetWebhookV1, { actor: ann, room: { name: 'No Such Room' }, webhook: { key: 'nothing' } }))
      .toMatchObject({ code: 'not_found', reason: 'room_not_found' });
    // Its webhook exists, and the token may not see it: refused for the room, whatever the webhook.
    expect(await rpc.refused(GetWebhookV1, { actor: roomToken, room: { id: room.id }, webhook: { id: hook.id } }))
      .toMatchObject({ code: 'forbidden', reason: 'outside_token_room' });
    expect(await rpc.refused(GetWebhookV1, { actor: roomToken, room: { id: room.id }, webhook: { id: 2_000_000_000 } }))
      .toMatchObject({ code: 'forbidden', reason: 'outside_token_room' });
    // A webhook of another room, by its id: not found in this one.
    expect(await rpc.refused(GetWebhookV1, { actor: ann, room: { id: other.id }, webhook: { id: hook.id } }))
      .toMatchObject({ code: 'not_found', reason: 'webhook_not_found' });
    expect((await rpc.send(GetWebhookV1, { actor: roomToken, room: { id: other.id }, webhook: { id: (await register(ann, other.id)).id } })).webhook.roomId)
      .toBe(other.id);
  });

  it('enabling finds the webhook as reading it does: the same refusals, in the same order', async () => {
    const room = await createRoom();
    const other = await createRoom();
    const hook = await register(ann, room.id, 'enable-me');
    const roomToken: Actor = { label: 'room token', roomId: other.id };

    expect(await rpc.refused(EnableWebhookV1, { actor: ann, room: { id: 2_000_000_000 }, webhook: { id: hook.id } }))
      .toMatchObject({ code: 'not_found', reason: 'room_not_found' });
    expect(await rpc.refused(EnableWebhookV1, { actor: roomToken, room: { id: room.id }, webhook: { id: hook.id } }))
      .toMatchObject({ code: 'forbidden', reason: 'outside_token_room' });
    expect(await rpc.refused(EnableWebhookV1, { actor: bob, room: { id: room.id }, webhook: { key: 'enable-me' } }))
      .toMatchObject({ code: 'not_found', reason: 'webhook_not_found' });
    expect((await rpc.send(EnableWebhookV1, { actor: ann, room: { id: room.id }, webhook: { key: 'enable-me' } })).webhook.id).toBe(hook.id);
  });
});
