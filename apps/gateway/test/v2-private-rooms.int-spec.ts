import { DataSource } from 'typeorm';
import { Stack, startStack, v1, V1Response } from '../../../test/support/harness';
import { v2, V2CallOptions, v2Session, V2Session } from './v2-helpers';

const errorOf = (res: V1Response) => ({ status: res.status, code: res.json?.error?.code, type: res.json?.error?.type, message: res.json?.error?.message });
const DELIVERY = '6f1c2a4e-3b5d-5e7f-8a9b-0c1d2e3f4a5b';
const OUTSIDE_TOKEN_ROOM = { status: 403, code: 403, type: 'Forbidden', message: 'This room token may only be used for its own room.' };

/**
 * A private room is there for its members and group admins only, whatever the operation:
 * a user who is neither gets GET's 403 on every room operation, and 404 on every webhook the
 * room has (as for a webhook of another user's), with nothing changed. A room-bound token
 * acts on its own room only, reads included.
 */
describe('v2 private rooms: every operation is its members\' and group admins\' (real services)', () => {
  let stack: Stack;
  let db: DataSource;
  let s: V2Session;
  let n = 0;
  let ownerId: number;
  let owner: string;
  let outsiderId: number;
  let outsider: string;

  const as = (token: string) => (verb: string, path: string, opts: V2CallOptions = {}) => v2(stack.baseUrl, verb, path, { token, ...opts });
  const hook = () => ({ url: `https://receiver.example.com/hooks/${n++}`, event: 'room_message' });
  const privateRoom = async (name = `Secret ${n++}`) => {
    const res = await as(s.token)('POST', 'room', { body: { name, privacy: 'private', topic: 'the plan', owner_user_id: ownerId } });
    if (res.status !== 201) throw new Error(`POST /v2/room answered ${res.status}: ${res.text}`);
    return { id: res.json.id as number, name };
  };
  /** As if the room did not exist: naming only the reference the client sent, never the room's name (room-access.ts, roomNotFound). */
  const refusedFor = (ref: number | string) => ({ status: 404, code: 404, type: 'Not Found', message: `Room ${ref} not found` });
  const roomRow = async (id: number) => (await db.query('SELECT name, privacy, topic, version FROM rooms WHERE id = $1', [id]))[0];
  const memberIds = async (id: number): Promise<number[]> =>
    (await db.query('SELECT user_id FROM room_members WHERE room_id = $1 ORDER BY user_id', [id])).map((r: { user_id: number }) => r.user_id);
  const webhookRows = async (id: number) => db.query('SELECT id, url, key FROM webhooks WHERE room_id = $1 ORDER BY id', [id]);

  beforeAll(async () => {
    stack = await startStack({ gateway: { V2_RATE_LIMIT_MAX: '100000', COMMAND_TIMEOUT_MS: '1500' }, rooms: true, dispatcher: false });
    db = stack.rooms!.get(DataSource);
    s = await v2Session(stack);
    ownerId = await s.createUser('Secret Owner');
    outsiderId = await s.createUser('Secret Outsider');
    // Every scope: a personal token's default, which a user who is not a group admin gets too.
    owner = await s.personalToken(ownerId);
    outsider = await s.personalToken(outsiderId, ['admin_room', 'manage_rooms', 'view_group', 'view_room', 'view_messages', 'send_message']);
  });
  afterAll(async () => stack?.stop());

  it('refuses an outsider every room operation as GET refuses them, and changes nothing', async () => {
    const room = await privateRoom();
    const before = await roomRow(room.id);
    await as(owner)('PUT', `room/${room.id}/participant/${ownerId}`);
    const call = as(outsider);
    const byName = await call('GET', `room/${encodeURIComponent(room.name)}`);
    expect(errorOf(byName)).toEqual(refusedFor(room.name));
    const operations: Array<[string, string, unknown]> = [
      ['GET', `room/${room.id}`, undefined],
      ['PUT', `room/${room.id}/topic`, { topic: 'hijacked' }],
      ['PUT', `room/${room.id}`, { privacy: 'public' }],
      ['PUT', `room/${room.id}`, { name: `${room.name} renamed`, topic: 'hijacked' }],
      ['DELETE', `room/${room.id}`, undefined],
      ['PUT', `room/${room.id}/member/${outsiderId}`, undefined],
      ['POST', `room/${room.id}/invite/${outsiderId}`, { reason: 'let me in' }],
      ['DELETE', `room/${room.id}/member/${ownerId}`, undefined],
      ['GET', `room/${room.id}/member`, undefined],
      ['GET', `room/${room.id}/participant`, undefined],
      // Moving someone else is acting on the room (admin_room); entering oneself has its own answer below.
      ['DELETE', `room/${room.id}/participant/${ownerId}`, undefined],
      ['PUT', `room/${room.id}/participant/${s.adminId}`, undefined],
    ];
    for (const [verb, path, body] of operations) {
      const res = await call(verb, path, { body });
      expect([verb, path, errorOf(res)]).toEqual([verb, path, refusedFor(room.id)]);
      expect(res.text).not.toContain(room.name);
    }
    // Its own presence: it may not enter, nor learn from leaving a room it is not in that the room exists.
    expect(errorOf(await call('PUT', `room/${room.id}/participant/${outsiderId}`))).toEqual(refusedFor(room.id));
    expect(errorOf(await call('DELETE', `room/${room.id}/participant/${outsiderId}`))).toEqual(refusedFor(room.id));

    expect(await roomRow(room.id)).toEqual(before);
    expect(await memberIds(room.id)).toEqual([ownerId]);
    expect((await as(owner)('GET', `room/${room.id}/participant`)).json.items.map((u: { id: number }) => u.id)).toEqual([ownerId]);
  });

  it('refuses an outsider the room\'s webhooks: 403 for the room\'s list and registrations, 404 for each webhook, nothing changed', async () => {
    const room = await privateRoom();
    const byId = (await as(owner)('POST', `room/${room.id}/webhook`, { body: hook() })).json.id as number;
    expect((await as(owner)('PUT', `room/${room.id}/extension/webhook/deploys`, { body: hook() })).status).toBe(201);
    const before = await webhookRows(room.id);
    const call = as(outsider);

    for (const [verb, path, body] of [
      ['GET', `room/${room.id}/webhook`, undefined],
      ['POST', `room/${room.id}/webhook`, hook()],
      ['PUT', `room/${room.id}/extension/webhook/deploys`, hook()],
      ['PUT', `room/${room.id}/extension/webhook/mine`, hook()],
    ] as Array<[string, string, unknown]>) {
      expect([verb, path, errorOf(await call(verb, path, { body }))]).toEqual([verb, path, refusedFor(room.id)]);
    }
    const notFound = (ref: number | string) => ({ status: 404, code: 404, type: 'Not Found', message: `Webhook ${ref} not found` });
    for (const [verb, path, body, ref] of [
      ['GET', `room/${room.id}/webhook/${byId}`, undefined, byId],
      ['DELETE', `room/${room.id}/webhook/${byId}`, undefined, byId],
      ['GET', `room/${room.id}/extension/webhook/deploys`, undefined, 'deploys'],
      ['DELETE', `room/${room.id}/extension/webhook/deploys`, undefined, 'deploys'],
      ['POST', `room/${room.id}/webhook/${byId}/enable`, undefined, byId],
      // The delivery log: the gateway asks for the webhook first, and the dispatchers are never asked.
      ['GET', `room/${room.id}/webhook/${byId}/delivery`, undefined, byId],
      ['GET', `room/${room.id}/webhook/${byId}/delivery/${DELIVERY}`, undefined, byId],
      ['POST', `room/${room.id}/webhook/${byId}/delivery/${DELIVERY}/redeliver`, undefined, byId],
      ['POST', `room/${room.id}/webhook/${byId}/recover`, { since: '2026-01-01T00:00:00Z' }, byId],
    ] as Array<[string, string, unknown, number | string]>) {
      expect([verb, path, errorOf(await call(verb, path, { body }))]).toEqual([verb, path, notFound(ref)]);
    }
    expect(await webhookRows(room.id)).toEqual(before);
  });

  it('lets a member and a group admin do all of it, but for deleting it and managing its members: a member may not', async () => {
    const room = await privateRoom();
    const member = await s.createUser('Secret Member');
    const memberToken = await s.personalToken(member);
    expect((await as(owner)('PUT', `room/${room.id}/member/${member}`)).status).toBe(204);

    for (const [who, token] of [['member', memberToken], ['group admin', s.token]] as const) {
      const call = as(token);
      const ok = async (verb: string, path: string, status: number, body?: unknown) => {
        const res = await call(verb, path, { body });
        expect([who, verb, path, res.status]).toEqual([who, verb, path, status]);
        return res;
      };
      await ok('GET', `room/${room.id}`, 200);
      await ok('PUT', `room/${room.id}/topic`, 204, { topic: `set by the ${who}` });
      await ok('PUT', `room/${room.id}`, 204, { topic: `put by the ${who}` });
      await ok('GET', `room/${room.id}/member`, 200);
      await ok('GET', `room/${room.id}/participant`, 200);
      // Managing the members is administering the room: its owner's and group admins' (v2-members.int-spec.ts), not a member's.
      const manages = who === 'group admin' ? 204 : 403;
      await ok('POST', `room/${room.id}/invite/${outsiderId}`, manages, { reason: 'join us' });
      await ok('DELETE', `room/${room.id}/member/${outsiderId}`, manages);
      await ok('PUT', `room/${room.id}/member/${outsiderId}`, manages);
      await ok('DELETE', `room/${room.id}/member/${outsiderId}`, manages);
      const id = (await ok('POST', `room/${room.id}/webhook`, 201, hook())).json.id as number;
      await ok('GET', `room/${room.id}/webhook`, 200);
      await ok('GET', `room/${room.id}/webhook/${id}`, 200);
      await ok('POST', `room/${room.id}/webhook/${id}/enable`, 204);
      await ok('PUT', `room/${room.id}/extension/webhook/${who.replace(' ', '-')}`, 201, hook());
      await ok('GET', `room/${room.id}/extension/webhook/${who.replace(' ', '-')}`, 200);
      await ok('DELETE', `room/${room.id}/extension/webhook/${who.replace(' ', '-')}`, 204);
      // Access granted, the delivery log is the dispatchers' to answer: none runs here (503).
      await ok('GET', `room/${room.id}/webhook/${id}/delivery`, 503);
      await ok('DELETE', `room/${room.id}/webhook/${id}`, 204);
    }
    expect((await roomRow(room.id)).topic).toBe('put by the group admin');
    // Deleting it is administering it: its owner's and group admins' (v2-room-administration.int-spec.ts), not a member's.
    expect(errorOf(await as(memberToken)('DELETE', `room/${room.id}`))).toMatchObject({ status: 403, message: `Only the room's owner and group admins may delete room ${room.name}.` });
    expect((await as(owner)('DELETE', `room/${room.id}`)).status).toBe(204);
    expect((await as(s.token)('DELETE', `room/${(await privateRoom()).id}`)).status).toBe(204);
  });

  it('keeps a room-bound token (an add-on installed in one room) to its room, for reads too', async () => {
    const home = await privateRoom();
    const other = await privateRoom();
    const open = (await as(s.token)('POST', 'room', { body: { name: `Open ${n++}` } })).json.id as number;
    const token = await stack.createToken('room', 'room add-on', { room: String(home.id) });
    // The scopes an add-on installed in the room may have asked for; set before the token's first use, so not cached.
    await db.query(`UPDATE api_tokens SET scopes = '{admin_room,manage_rooms,view_group,view_room,view_messages,send_notification}' WHERE label = 'room add-on'`);
    const call = as(token);

    for (const room of [other.id, open]) {
      for (const [verb, path, body] of [
        ['GET', `room/${room}`, undefined],
        ['PUT', `room/${room}/topic`, { topic: 'elsewhere' }],
        ['PUT', `room/${room}`, { privacy: 'public' }],
        ['DELETE', `room/${room}`, undefined],
        ['GET', `room/${room}/participant`, undefined],
        ['GET', `room/${room}/webhook`, undefined],
        ['POST', `room/${room}/notification`, { message: 'hello' }],
      ] as Array<[string, string, unknown]>) {
        expect([verb, path, errorOf(await call(verb, path, { body }))]).toEqual([verb, path, OUTSIDE_TOKEN_ROOM]);
      }
    }
    expect(errorOf(await call('GET', `room/${other.id}/member`))).toEqual(OUTSIDE_TOKEN_ROOM);
    expect((await roomRow(other.id)).topic).toBe('the plan');
    // Creating a room is the group's, not its room's (and would name anyone as its owner).
    const created = await call('POST', 'room', { body: { name: `Made By Add-on ${n++}`, owner_user_id: outsiderId } });
    expect(errorOf(created)).toEqual({
      status: 403, code: 403, type: 'Forbidden', message: `This token is confined to one room (room ${home.id}): it may not create rooms.`,
    });
    expect((await db.query('SELECT count(*)::int AS n FROM rooms WHERE name LIKE $1', ['Made By Add-on%']))[0].n).toBe(0);
    // Its own room, private as it is: the token has no user, so membership is not its rule.
    expect((await call('GET', `room/${home.id}`)).status).toBe(200);
    const own = await call('PUT', `room/${home.id}/topic`, { body: { topic: 'from the add-on' } });
    expect([own.status, own.text]).toEqual([204, '']);
  });

  it('keeps a room-bound token from the group\'s administration, though its add-on asked for admin_group: users and add-ons', async () => {
    const home = await privateRoom();
    const token = await stack.createToken('room', 'room admin add-on', { room: String(home.id) });
    await db.query(`UPDATE api_tokens SET scopes = '{admin_group,admin_room,view_group,view_room}' WHERE label = 'room admin add-on'`);
    const call = as(token);
    const confined = expect.stringMatching(/^This token does not have the scope admin_group, which this operation needs \(it has: admin_room, view_group, view_room\)\. admin_group does not apply to a token confined to one room/);
    for (const [verb, path, body] of [
      ['POST', 'user', { name: 'Eve Intruder', email: `eve${n++}@example.com`, password: 'correct horse 1' }],
      ['DELETE', `user/${outsiderId}`, undefined],
      ['GET', 'addons', undefined],
      ['GET', 'addons/1', undefined],
    ] as Array<[string, string, unknown]>) {
      expect([verb, path, errorOf(await call(verb, path, { body }))]).toEqual([verb, path, { status: 403, code: 403, type: 'Forbidden', message: confined }]);
    }
    expect((await as(s.token)('GET', `user/${outsiderId}`)).status).toBe(200);
    // A user's record (e-mail address) is the group's too; the list of names stays readable (mentions).
    const record = await call('GET', `user/${outsiderId}`);
    expect(errorOf(record)).toEqual({
      status: 403, code: 403, type: 'Forbidden',
      message: `This token is confined to one room (room ${home.id}): it may not read a user's record (e-mail address, presence).`,
    });
    expect(record.text).not.toContain('@example.com');
    expect((await call('GET', 'user')).status).toBe(200);
    // Its own room, as before.
    expect((await call('GET', `room/${home.id}`)).status).toBe(200);
  });

  it('leaves v1 as it was: an admin token sees and changes any private room', async () => {
    const room = await privateRoom();
    const shown = await v1(stack.baseUrl, 'GET', 'rooms/show', { auth_token: s.v1Admin, room_id: String(room.id) });
    expect([shown.status, shown.json.room?.room_id]).toEqual([200, room.id]);
    const topic = await v1(stack.baseUrl, 'POST', 'rooms/topic', { auth_token: s.v1Admin, room_id: String(room.id), topic: 'set over v1' });
    expect(topic.status).toBe(200);
    expect((await roomRow(room.id)).topic).toBe('set over v1');
  });
});
