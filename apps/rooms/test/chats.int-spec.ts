import {
  AddMemberV1, CreateRoomV1, DeleteRoomV1, DeleteUserV1, ListChatsV1, MarkPrivateChatReadV1, MarkRoomReadV1, PrivateMessageSentV1, RemoveMemberV1,
  SendMessageV1, SendNotificationV1, SendPrivateMessageV1, UNREAD_CAP,
} from '@app/contracts';
import { DataSource, EntityManager } from 'typeorm';
import { ChatRepository } from '../src/chats/chat.repository';
import { privateMentionPattern } from '../src/chats/chat-rules';
import { ACTOR, EventCapture, RoomsRpc, RoomsStack, sql, startStack } from './support';

/**
 * A person's chats and read markers (issue 36) on real Postgres: which rooms and private
 * chats are listed, unread counts (capped) and mentions, markers that only move forward under
 * concurrent writes and go with their room, the chats list for its person only, and the event
 * a private message writes with it.
 */
describe('chats and read markers (real Postgres, RabbitMQ)', () => {
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  let capture: EventCapture;
  const u: Record<'ann' | 'bob' | 'carl', { id: number }> = {} as never;

  beforeAll(async () => {
    stack = await startStack({ OUTBOX_POLL_MS: '200' });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace, 'user.#');
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    u.ann = await rpc.createUser('Ann Lee', { mentionName: 'ann' });
    u.bob = await rpc.createUser('Bob Roe', { mentionName: 'bob' });
    u.carl = await rpc.createUser('Carl Poe', { mentionName: 'carl' });
  });
  afterAll(async () => {
    await rpc?.close();
    await capture?.stop();
    await stack?.stop();
  });

  const as = (who: { id: number }) => ({ label: 'chats-test', userId: who.id });
  const createRoom = async (name: string, privacy: 'public' | 'private' = 'public') => (await rpc.send(CreateRoomV1, {
    actor: ACTOR, name, owner: { id: u.carl.id }, privacy, topic: '', guestAccess: false,
  })).room;
  const say = async (who: { id: number }, roomId: number, message: string) => (await rpc.send(SendMessageV1, { actor: as(who), room: { id: roomId }, message })).id;
  const notify = (roomId: number, message: string) => rpc.send(SendNotificationV1, {
    actor: ACTOR, room: { id: roomId }, from: 'CI', message, messageFormat: 'text', notify: false, color: 'gray',
  });
  const chats = (who: { id: number }) => rpc.send(ListChatsV1, { actor: as(who), user: { id: who.id } });
  const roomIn = async (who: { id: number }, roomId: number) => (await chats(who)).rooms.find((r) => r.id === roomId);
  const pm = async (from: { id: number }, to: { id: number }, message: string) =>
    (await rpc.send(SendPrivateMessageV1, { actor: as(from), user: { id: to.id }, message, messageFormat: 'text', notify: false })).messageId;

  it('lists the rooms a person is in or opened, counts what others said since, and marks mentions', async () => {
    const ops = await createRoom('Chat Ops');
    const secret = await createRoom('Chat Secret', 'private');
    const first = await say(u.bob, ops.id, 'before anyone opened it');
    // Not a member, never opened: not Ann's chat.
    expect(await roomIn(u.ann, ops.id)).toBeUndefined();
    await rpc.send(MarkRoomReadV1, { actor: as(u.ann), room: { id: ops.id }, messageId: first });
    expect(await roomIn(u.ann, ops.id)).toEqual({ id: ops.id, name: 'Chat Ops', privacy: 'public', unread: 0, mentioned: false, lastMessage: { id: first, date: expect.any(String) } });

    await say(u.bob, ops.id, 'hello all');
    await say(u.ann, ops.id, 'my own words are never unread');
    const mention = await say(u.bob, ops.id, 'ping @ann');
    await notify(ops.id, 'a build passed');
    expect(await roomIn(u.ann, ops.id)).toMatchObject({ unread: 3, mentioned: true, lastMessage: { id: expect.any(String) } });
    await rpc.send(MarkRoomReadV1, { actor: as(u.ann), room: { id: ops.id }, messageId: mention });
    expect(await roomIn(u.ann, ops.id)).toMatchObject({ unread: 1, mentioned: false });
    // @all is everyone's mention (in PostgreSQL's reading of the pattern); @here is no one's.
    const here = await say(u.bob, ops.id, '@here standup');
    expect(await roomIn(u.ann, ops.id)).toMatchObject({ unread: 2, mentioned: false });
    await rpc.send(MarkRoomReadV1, { actor: as(u.ann), room: { id: ops.id }, messageId: here });
    await notify(ops.id, '<b>@all</b> deploy is failing');
    expect(await roomIn(u.ann, ops.id)).toMatchObject({ unread: 1, mentioned: true });

    // A member of a private room who never opened it: what was said since they became one.
    await say(u.carl, secret.id, 'before Ann was a member');
    await rpc.send(AddMemberV1, { actor: as(u.carl), room: { id: secret.id }, user: { id: u.ann.id } });
    await say(u.carl, secret.id, 'welcome @ann');
    expect(await roomIn(u.ann, secret.id)).toMatchObject({ name: 'Chat Secret', privacy: 'private', unread: 1, mentioned: true });
    // The owner is listed, with nothing unread (no marker, no membership start).
    expect(await roomIn(u.carl, secret.id)).toMatchObject({ unread: 0 });
    // Out of it, the room is no longer hers; archived rooms are no one's.
    await rpc.send(RemoveMemberV1, { actor: as(u.carl), room: { id: secret.id }, user: { id: u.ann.id } });
    expect(await roomIn(u.ann, secret.id)).toBeUndefined();
    await sql(stack.databaseUrl, 'UPDATE rooms SET is_archived = true WHERE id = $1', [secret.id]);
    expect(await roomIn(u.carl, secret.id)).toBeUndefined();
    // Rooms by name.
    const names = (await chats(u.carl)).rooms.map((r) => r.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it('counts at most UNREAD_CAP unread messages', async () => {
    const busy = await createRoom('Chat Busy');
    const first = await say(u.bob, busy.id, 'start');
    await rpc.send(MarkRoomReadV1, { actor: as(u.ann), room: { id: busy.id }, messageId: first });
    await Promise.all(Array.from({ length: UNREAD_CAP + 5 }, (_, i) => notify(busy.id, `n${i}`)));
    expect(await roomIn(u.ann, busy.id)).toMatchObject({ unread: UNREAD_CAP });
  });

  it('moves a marker forward only, the newest winning under concurrent writes, and drops it with its room', async () => {
    const room = await createRoom('Chat Markers');
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await say(u.bob, room.id, `m${i}`));
    await Promise.all([...ids].reverse().map((id) => rpc.send(MarkRoomReadV1, { actor: as(u.ann), room: { id: room.id }, messageId: id })));
    const marker = async () => (await sql(stack.databaseUrl, 'SELECT message_id FROM room_read_markers WHERE user_id = $1 AND room_id = $2', [u.ann.id, room.id]))[0]?.message_id;
    expect(await marker()).toBe(ids[5]);
    await rpc.send(MarkRoomReadV1, { actor: as(u.ann), room: { id: room.id }, messageId: ids[1] });
    expect(await marker()).toBe(ids[5]);

    const other = await createRoom('Chat Other');
    const elsewhere = await say(u.bob, other.id, 'not of that room');
    expect(await rpc.refused(MarkRoomReadV1, { actor: as(u.ann), room: { id: room.id }, messageId: elsewhere }))
      .toMatchObject({ code: 'invalid', reason: 'rule', field: 'message_id' });
    expect(await rpc.refused(MarkRoomReadV1, { actor: ACTOR, room: { id: room.id }, messageId: ids[0] })).toMatchObject({ code: 'forbidden' });

    await rpc.send(DeleteRoomV1, { actor: ACTOR, room: { id: room.id } });
    expect(await marker()).toBeUndefined();
  });

  it('lists private chats newest first, with unread, mentions by mention name, and their event written with them', async () => {
    const dan = await rpc.createUser('Dan Vee', { mentionName: 'dan' });
    await pm(dan, u.ann, 'hi Ann');
    const fromBob = await pm(u.bob, dan, 'hey @dan!');
    await pm(u.carl, dan, 'hi @danny');
    const list = (await chats(dan)).users;
    expect(list.map((c) => c.name)).toEqual(['Carl Poe', 'Bob Roe', 'Ann Lee']);
    expect(list).toEqual([
      expect.objectContaining({ id: u.carl.id, mentionName: 'carl', unread: 1, mentioned: false }),
      expect.objectContaining({ id: u.bob.id, unread: 1, mentioned: true, lastMessage: { id: fromBob, date: expect.any(String) } }),
      // Dan's own message is never unread.
      expect.objectContaining({ id: u.ann.id, unread: 0, mentioned: false }),
    ]);
    await rpc.send(MarkPrivateChatReadV1, { actor: as(dan), user: { mention: 'bob' }, messageId: fromBob });
    expect((await chats(dan)).users.find((c) => c.id === u.bob.id)).toMatchObject({ unread: 0, mentioned: false });
    const annMessage = (await chats(u.ann)).users.find((c) => c.id === dan.id)!.lastMessage!.id;
    expect(await rpc.refused(MarkPrivateChatReadV1, { actor: as(dan), user: { id: u.bob.id }, messageId: annMessage }))
      .toMatchObject({ code: 'invalid', field: 'message_id' });

    const event = await capture.waitFor(PrivateMessageSentV1.routingKey, (e) => e.payload.message.id === fromBob);
    expect(event.payload).toEqual({
      message: { id: fromBob, date: expect.any(String), message: 'hey @dan!', messageFormat: 'text', from: expect.objectContaining({ id: u.bob.id, mentionName: 'bob' }) },
      to: expect.objectContaining({ id: dan.id, name: 'Dan Vee', mentionName: 'dan' }),
    });

    // A deleted user's chat is no longer listed; the list is its person's only.
    await rpc.send(DeleteUserV1, { actor: ACTOR, user: { id: u.carl.id } });
    expect((await chats(dan)).users.map((c) => c.id)).not.toContain(u.carl.id);
    expect(await rpc.refused(ListChatsV1, { actor: as(u.bob), user: { id: dan.id } })).toMatchObject({ code: 'forbidden', reason: 'not_allowed' });
    expect(await rpc.refused(ListChatsV1, { actor: ACTOR, user: { id: dan.id } })).toMatchObject({ code: 'forbidden' });
  });

  it('reads both lists through indexes: no scan of all messages or private messages (EXPLAIN)', async () => {
    const repository = stack.rooms.get(ChatRepository);
    const plans = await stack.rooms.get(DataSource).transaction(async (m) => {
      // With sequential scans priced out, a scan that remains is one no index can serve.
      await m.query('SET LOCAL enable_seqscan = off');
      const explain = { query: (text: string, params: unknown[]) => m.query(`EXPLAIN ${text}`, params) } as unknown as EntityManager;
      const text = (rows: unknown) => (rows as Array<{ 'QUERY PLAN': string }>).map((r) => r['QUERY PLAN']).join('\n');
      return {
        rooms: text(await repository.rooms(explain, u.ann.id)),
        users: text(await repository.privateChats(explain, u.ann.id, privateMentionPattern('ann'))),
      };
    });
    expect(plans.rooms).not.toMatch(/Seq Scan on messages/);
    expect(plans.rooms).toMatch(/messages_room_time_idx/);
    expect(plans.users).not.toMatch(/Seq Scan on private_messages/);
    expect(plans.users).toMatch(/private_messages_pair_idx/);
    expect(plans.users).toMatch(/private_messages_sender_idx/);
  });
});
