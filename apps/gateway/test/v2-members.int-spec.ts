import { DataSource } from 'typeorm';
import { EventCapture, Stack, startStack, v1, V1Response } from '../../../test/support/harness';
import { v2, V2CallOptions, v2Session, V2Session } from './v2-helpers';

const BASE = 'https://chat.example.test';
const ENTERED = 'room.member-entered.v2';
const EXITED = 'room.member-exited.v2';

const errorOf = (res: V1Response) => ({ status: res.status, code: res.json.error.code, type: res.json.error.type, message: res.json.error.message });

describe('v2 room members, invitations and participants (real services)', () => {
  let stack: Stack;
  let capture: EventCapture;
  let db: DataSource;
  let s: V2Session;
  let n = 0;

  const call = (verb: string, path: string, opts: V2CallOptions = {}) => v2(stack.baseUrl, verb, path, { token: s.token, ...opts });

  const createRoom = async (name: string, privacy: 'public' | 'private', owner = s.adminId): Promise<number> => {
    const res = await v1(stack.baseUrl, 'POST', 'rooms/create', { auth_token: s.v1Admin, name, owner_user_id: owner, privacy });
    if (res.status !== 200) throw new Error(`rooms/create answered ${res.status}: ${res.text}`);
    return res.json.room.room_id as number;
  };

  interface TestUser { id: number; name: string; mention: string; email: string }
  const createUser = async (name: string): Promise<TestUser> => {
    const mention = `${name.replace(/\W/g, '')}${n++}`;
    const email = `${mention.toLowerCase()}@example.com`;
    return { id: await s.createUser(name, email, { mention_name: mention }), name, mention, email };
  };

  const versionOf = async (table: 'rooms' | 'users', id: number): Promise<string> =>
    (await db.query(`SELECT version FROM ${table} WHERE id = $1`, [id]))[0].version;

  /** The Room object as the specification lists its fields. */
  const roomObject = async (id: number, name: string, privacy: 'public' | 'private', isArchived = false) => ({
    id,
    is_archived: isArchived,
    links: {
      self: `${BASE}/v2/room/${id}`,
      participants: `${BASE}/v2/room/${id}/participant`,
      webhooks: `${BASE}/v2/room/${id}/webhook`,
      ...(privacy === 'private' ? { members: `${BASE}/v2/room/${id}/member` } : {}),
    },
    name,
    privacy,
    version: await versionOf('rooms', id),
  });

  /** The User object as the specification lists its fields. */
  const userObject = async (u: TestUser) => ({
    id: u.id, links: { self: `${BASE}/v2/user/${u.id}` }, mention_name: u.mention, name: u.name, version: await versionOf('users', u.id),
  });

  const item = (u: TestUser) => ({ id: u.id, name: u.name, mention_name: u.mention, version: expect.any(String), links: { self: `${BASE}/v2/user/${u.id}` } });

  const ofRoomAndUser = (roomId: number, userId: number) => (e: { payload: any }) => e.payload.room.id === roomId && e.payload.sender.id === userId;

  const memberIds = async (room: number | string): Promise<number[]> => {
    const res = await call('GET', `room/${room}/member`);
    expect(res.status).toBe(200);
    return res.json.items.map((i: { id: number }) => i.id);
  };
  const participantIds = async (room: number | string): Promise<number[]> => {
    const res = await call('GET', `room/${room}/participant`);
    expect(res.status).toBe(200);
    return res.json.items.map((i: { id: number }) => i.id);
  };

  beforeAll(async () => {
    // This suite makes more requests than the default limit of one token allows.
    stack = await startStack({ gateway: { V2_RATE_LIMIT_MAX: '100000', PUBLIC_BASE_URL: BASE }, rooms: { PUBLIC_BASE_URL: BASE } });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    db = stack.rooms!.get(DataSource);
    s = await v2Session(stack);
  });
  afterAll(async () => {
    await capture?.stop();
    await stack?.stop();
  });

  describe('authentication and scopes', () => {
    let room: number;
    let user: TestUser;
    beforeAll(async () => {
      room = await createRoom('Scoped Room', 'private');
      user = await createUser('Scoped User');
    });

    it('answers 401 without a token on every operation', async () => {
      const routes: Array<[string, string]> = [
        ['GET', `room/${room}/member`], ['PUT', `room/${room}/member/${user.id}`], ['DELETE', `room/${room}/member/${user.id}`],
        ['POST', `room/${room}/invite/${user.id}`], ['GET', `room/${room}/participant`],
        ['PUT', `room/${room}/participant/${user.id}`], ['DELETE', `room/${room}/participant/${user.id}`],
      ];
      for (const [verb, path] of routes) {
        const res = await v2(stack.baseUrl, verb, path);
        expect([verb, path, errorOf(res)]).toEqual([verb, path, expect.objectContaining({ status: 401, code: 401, type: 'Unauthorized' })]);
      }
      expect(await memberIds(room)).toEqual([s.adminId]);
    });

    it('answers 403 naming the scopes when the token has none of them', async () => {
      const viewer = await s.personalToken(s.adminId, ['view_group', 'view_room', 'view_messages']);
      const sender = await s.personalToken(s.adminId, ['send_message', 'send_notification']);
      const cases: Array<[string, string, string, RegExp]> = [
        ['PUT', `room/${room}/member/${user.id}`, viewer, /admin_room, manage_rooms/],
        ['DELETE', `room/${room}/member/${user.id}`, viewer, /admin_room, manage_rooms/],
        ['POST', `room/${room}/invite/${user.id}`, sender, /admin_room, manage_rooms/],
        ['GET', `room/${room}/member`, sender, /view_group, view_room/],
        ['GET', `room/${room}/participant`, sender, /view_group, view_room/],
      ];
      for (const [verb, path, token, scopes] of cases) {
        const res = await v2(stack.baseUrl, verb, path, { token });
        expect(errorOf(res)).toEqual({ status: 403, code: 403, type: 'Forbidden', message: expect.stringMatching(scopes) });
      }
      expect(await memberIds(room)).toEqual([s.adminId]);
    });

    it('accepts either scope of each operation', async () => {
      for (const scope of ['admin_room', 'manage_rooms']) {
        const token = await s.personalToken(s.adminId, [scope]);
        expect((await v2(stack.baseUrl, 'PUT', `room/${room}/member/${user.id}`, { token })).status).toBe(204);
        expect((await v2(stack.baseUrl, 'DELETE', `room/${room}/member/${user.id}`, { token })).status).toBe(204);
      }
      for (const scope of ['view_group', 'view_room']) {
        const token = await s.personalToken(s.adminId, [scope]);
        expect((await v2(stack.baseUrl, 'GET', `room/${room}/member`, { token })).status).toBe(200);
        expect((await v2(stack.baseUrl, 'GET', `room/${room}/participant`, { token })).status).toBe(200);
      }
    });

    it('keeps a room token to its own room', async () => {
      const other = await createRoom('Other Private Room', 'private');
      const token = await stack.createToken('room', 'members room bot', { room: String(room) });
      // Room tokens are made with send_notification only; this one manages its room (set before its first use, so not cached).
      await db.query(`UPDATE api_tokens SET scopes = '{admin_room,view_room}' WHERE label = 'members room bot'`);
      expect((await v2(stack.baseUrl, 'GET', `room/${room}/member`, { token })).status).toBe(200);
      expect(errorOf(await v2(stack.baseUrl, 'PUT', `room/${other}/member/${user.id}`, { token }))).toMatchObject({ status: 403 });
      expect(errorOf(await v2(stack.baseUrl, 'GET', `room/${other}/participant`, { token }))).toMatchObject({ status: 403 });
      expect(await memberIds(other)).toEqual([s.adminId]);
    });
  });

  describe('PUT and DELETE /v2/room/{room}/member/{user}', () => {
    it('adds a member (204), again 204, by id, e-mail address or @mention name, keeping the room version', async () => {
      const room = await createRoom('Members Room', 'private');
      const [a, b, c] = [await createUser('Member A'), await createUser('Member B'), await createUser('Member C')];
      const version = await versionOf('rooms', room);

      const added = await call('PUT', `room/${room}/member/${a.id}`);
      expect(added.status).toBe(204);
      expect(added.text).toBe('');
      expect((await call('PUT', `room/${room}/member/${a.id}`)).status).toBe(204);
      expect((await call('PUT', `room/Members Room/member/${encodeURIComponent(b.email)}`)).status).toBe(204);
      expect((await call('PUT', `room/${room}/member/@${c.mention}`)).status).toBe(204);

      expect(await memberIds(room)).toEqual([s.adminId, a.id, b.id, c.id]);
      expect(await versionOf('rooms', room)).toBe(version);
    });

    it('removes a member (204) and lets a removed user not be a member again (204)', async () => {
      const room = await createRoom('Shrinking Room', 'private');
      const a = await createUser('Leaving Member');
      await call('PUT', `room/${room}/member/${a.id}`);
      const version = await versionOf('rooms', room);
      const removed = await call('DELETE', `room/${room}/member/${encodeURIComponent(a.email)}`);
      expect([removed.status, removed.text]).toEqual([204, '']);
      expect(await memberIds(room)).toEqual([s.adminId]);
      expect((await call('DELETE', `room/${room}/member/${a.id}`)).status).toBe(204);
      expect(await versionOf('rooms', room)).toBe(version);
    });

    it('makes a removed member who is in the room exit it (room_exit with the room as it was)', async () => {
      const room = await createRoom('Eviction Room', 'private');
      const a = await createUser('Evicted Member');
      await call('PUT', `room/${room}/member/${a.id}`);
      expect((await call('PUT', `room/${room}/participant/${a.id}`)).status).toBe(204);
      await capture.waitFor(ENTERED, ofRoomAndUser(room, a.id));
      const expected = { room: await roomObject(room, 'Eviction Room', 'private'), sender: await userObject(a) };

      expect((await call('DELETE', `room/${room}/member/${a.id}`)).status).toBe(204);
      const exit = await capture.waitFor(EXITED, ofRoomAndUser(room, a.id));
      expect(exit.payload).toEqual(expected);
      expect(await participantIds(room)).toEqual([]);
      // Not a member any more: may not come back in.
      expect(errorOf(await call('PUT', `room/${room}/participant/${a.id}`))).toMatchObject({ status: 403 });
    });

    it('answers 400 for a public room, 404 for an unknown room or user', async () => {
      const room = await createRoom('Open Members Room', 'public');
      const a = await createUser('Nobody Special');
      const publicError = { status: 400, code: 400, type: 'Bad Request', message: `Room ${room} is public: members are managed for private rooms only.` };
      expect(errorOf(await call('PUT', `room/${room}/member/${a.id}`))).toEqual(publicError);
      expect(errorOf(await call('DELETE', `room/${room}/member/${a.id}`))).toEqual(publicError);
      expect(errorOf(await call('GET', `room/${room}/member`))).toEqual(publicError);
      expect(errorOf(await call('PUT', 'room/Open Members Room/member/1'))).toMatchObject({ status: 400, message: /^Room Open Members Room is public/ });

      const priv = await createRoom('Private Lookups', 'private');
      for (const verb of ['PUT', 'DELETE']) {
        expect(errorOf(await call(verb, `room/999999/member/${a.id}`))).toEqual({ status: 404, code: 404, type: 'Not Found', message: 'Room 999999 not found' });
        expect(errorOf(await call(verb, `room/No Such Room/member/${a.id}`))).toMatchObject({ status: 404, message: 'Room No Such Room not found' });
        expect(errorOf(await call(verb, `room/${priv}/member/999999`))).toEqual({ status: 404, code: 404, type: 'Not Found', message: 'User 999999 not found' });
        expect(errorOf(await call(verb, `room/${priv}/member/nobody@example.com`))).toMatchObject({ status: 404, message: 'User nobody@example.com not found' });
      }
      expect(errorOf(await call('GET', 'room/999999/member'))).toMatchObject({ status: 404, message: 'Room 999999 not found' });
    });

    it('treats a deleted user as unknown', async () => {
      const room = await createRoom('Ghost Room', 'private');
      const a = await createUser('Ghost User');
      await call('PUT', `room/${room}/member/${a.id}`);
      expect((await v1(stack.baseUrl, 'POST', 'users/delete', { auth_token: s.v1Admin, user_id: a.id })).status).toBe(200);
      expect(await memberIds(room)).toEqual([s.adminId]);
      expect(errorOf(await call('PUT', `room/${room}/member/${a.id}`))).toMatchObject({ status: 404, message: `User ${a.id} not found` });
    });
  });

  describe("who manages a private room's members", () => {
    it('refuses a member (403) adding, inviting or removing anyone, the owner included; the owner and group admins may', async () => {
      const owner = await createUser('Room Owner');
      const room = await createRoom('Owned Private', 'private', owner.id);
      const [member, other] = [await createUser('Plain Member'), await createUser('Would Be Member')];
      await call('PUT', `room/${room}/member/${member.id}`);
      const memberToken = await s.personalToken(member.id, ['admin_room', 'view_room']);
      const refusal = { status: 403, code: 403, type: 'Forbidden', message: "Only the room's owner and group admins may manage the members of room Owned Private." };
      expect(errorOf(await v2(stack.baseUrl, 'PUT', `room/${room}/member/${other.id}`, { token: memberToken }))).toEqual(refusal);
      expect(errorOf(await v2(stack.baseUrl, 'POST', `room/${room}/invite/${other.id}`, { token: memberToken }))).toEqual(refusal);
      expect(errorOf(await v2(stack.baseUrl, 'DELETE', `room/${room}/member/${owner.id}`, { token: memberToken }))).toEqual(refusal);
      expect(errorOf(await v2(stack.baseUrl, 'DELETE', `room/${room}/member/${member.id}`, { token: memberToken }))).toEqual(refusal);
      expect(await memberIds(room)).toEqual([owner.id, member.id]);

      // The owner (not a group admin) manages the members, and so does a group admin.
      const ownerToken = await s.personalToken(owner.id, ['manage_rooms', 'view_room']);
      expect((await v2(stack.baseUrl, 'PUT', `room/${room}/member/${other.id}`, { token: ownerToken })).status).toBe(204);
      expect((await v2(stack.baseUrl, 'DELETE', `room/${room}/member/${other.id}`, { token: ownerToken })).status).toBe(204);
      expect((await v2(stack.baseUrl, 'POST', `room/${room}/invite/${other.id}`, { token: ownerToken })).status).toBe(204);
      expect((await call('DELETE', `room/${room}/member/${other.id}`)).status).toBe(204);
      expect(await memberIds(room)).toEqual([owner.id, member.id]);
      // A token without a user (here a room token of this room with admin_room) keeps managing members as before.
      const roomToken = await stack.createToken('room', 'owned private bot', { room: String(room) });
      await db.query(`UPDATE api_tokens SET scopes = '{admin_room,view_room}' WHERE label = 'owned private bot'`);
      expect((await v2(stack.baseUrl, 'PUT', `room/${room}/member/${other.id}`, { token: roomToken })).status).toBe(204);
      expect(await memberIds(room)).toEqual([owner.id, member.id, other.id]);
    });

    it('never removes the owner from their own room (400), and lets the owner in when not in room_members', async () => {
      const owner = await createUser('Unremovable Owner');
      const room = await createRoom('Owner Stays', 'private', owner.id);
      for (const who of [String(owner.id), encodeURIComponent(owner.email)]) {
        expect(errorOf(await call('DELETE', `room/${room}/member/${who}`))).toEqual({
          status: 400, code: 400, type: 'Bad Request',
          message: "user: names the room's owner, who is never removed from their own room (make someone else its owner first)",
        });
      }
      expect(await memberIds(room)).toEqual([owner.id]);
      // Even without a membership row (an older room, or one made private later), the owner uses the room.
      await db.query('DELETE FROM room_members WHERE room_id = $1', [room]);
      const ownerToken = await s.personalToken(owner.id, ['view_room', 'view_messages', 'send_message', 'manage_rooms']);
      expect((await v2(stack.baseUrl, 'GET', `room/${room}`, { token: ownerToken })).status).toBe(200);
      expect((await v2(stack.baseUrl, 'GET', `room/${room}/history`, { token: ownerToken })).status).toBe(200);
      const listed = await v2(stack.baseUrl, 'GET', 'room', { token: ownerToken, query: { 'max-results': 1000 } });
      expect(listed.json.items.map((r: { id: number }) => r.id)).toContain(room);
      expect((await v2(stack.baseUrl, 'POST', `room/${room}/message`, { token: ownerToken, body: { message: 'still mine' } })).status).toBe(201);
      expect((await v2(stack.baseUrl, 'PUT', `room/${room}/participant/${owner.id}`, { token: ownerToken })).status).toBe(204);
      expect((await v2(stack.baseUrl, 'PUT', `room/${room}/member/${owner.id}`, { token: ownerToken })).status).toBe(204);
    });

    it("answers an outsider of a private room as if it did not exist, on every members' and participants' route", async () => {
      const room = await createRoom('Hidden Members', 'private');
      const outsider = await createUser('Nosy Outsider');
      const token = await s.personalToken(outsider.id, ['admin_room', 'view_room']);
      const routes: Array<[string, string]> = [
        ['GET', `room/${room}/member`], ['PUT', `room/${room}/member/${outsider.id}`], ['DELETE', `room/${room}/member/${s.adminId}`],
        ['POST', `room/${room}/invite/${outsider.id}`], ['GET', `room/${room}/participant`], ['PUT', `room/${room}/participant/${s.adminId}`],
      ];
      for (const [verb, path] of routes) {
        const res = await v2(stack.baseUrl, verb, path, { token });
        expect([verb, path, errorOf(res)]).toEqual([verb, path, { status: 404, code: 404, type: 'Not Found', message: `Room ${room} not found` }]);
        expect(res.text).not.toContain('Hidden Members');
      }
      expect(await memberIds(room)).toEqual([s.adminId]);
    });
  });

  describe('GET /v2/room/{room}/member', () => {
    it('lists members as user items, by id, a page at a time', async () => {
      const room = await createRoom('Paged Members', 'private');
      const users = [await createUser('Paged One'), await createUser('Paged Two'), await createUser('Paged Three')];
      for (const u of users) await call('PUT', `room/${room}/member/${u.id}`);

      const first = await call('GET', `room/${room}/member`, { query: { 'max-results': 2 } });
      expect(first.status).toBe(200);
      expect(Object.keys(first.json).sort()).toEqual(['items', 'links', 'maxResults', 'startIndex']);
      expect(first.json).toEqual({
        items: [
          { id: s.adminId, name: 'Group Admin', mention_name: expect.any(String), version: await versionOf('users', s.adminId), links: { self: `${BASE}/v2/user/${s.adminId}` } },
          { ...item(users[0]), version: await versionOf('users', users[0].id) },
        ],
        startIndex: 0,
        maxResults: 2,
        links: { self: `${BASE}/v2/room/${room}/member`, next: `${BASE}/v2/room/${room}/member?start-index=2&max-results=2` },
      });
      for (const i of first.json.items) expect(Object.keys(i).sort()).toEqual(['id', 'links', 'mention_name', 'name', 'version']);

      const second = await call('GET', `room/${room}/member`, { query: { 'start-index': 2, 'max-results': 2 } });
      expect(second.json).toEqual({
        items: [item(users[1]), item(users[2])],
        startIndex: 2,
        maxResults: 2,
        links: { self: `${BASE}/v2/room/${room}/member`, prev: `${BASE}/v2/room/${room}/member?start-index=0&max-results=2` },
      });
      expect((await call('GET', `room/${room}/member`, { query: { 'start-index': 4 } })).json.items).toEqual([]);
    });

    it('answers 400 for a broken page parameter', async () => {
      const room = await createRoom('Bad Page Room', 'private');
      expect(errorOf(await call('GET', `room/${room}/member`, { query: { 'max-results': 1001 } }))).toMatchObject({ status: 400, message: /^max-results: / });
      expect(errorOf(await call('GET', `room/${room}/participant`, { query: { 'start-index': -1 } }))).toMatchObject({ status: 400, message: /^start-index: / });
    });
  });

  describe('POST /v2/room/{room}/invite/{user}', () => {
    it('makes the invited user a member of a private room (204), with or without a reason or a body', async () => {
      const room = await createRoom('Invite Only', 'private');
      const [a, b, c] = [await createUser('Invited A'), await createUser('Invited B'), await createUser('Invited C')];
      const res = await call('POST', `room/${room}/invite/${a.id}`, { body: { reason: 'We need you here' } });
      expect([res.status, res.text]).toEqual([204, '']);
      expect((await call('POST', `room/${room}/invite/${encodeURIComponent(b.email)}`)).status).toBe(204);
      expect((await call('POST', `room/${room}/invite/${c.id}`, { body: {} })).status).toBe(204);
      expect((await call('POST', `room/${room}/invite/${c.id}`, { body: { reason: 'again', unknown: true } })).status).toBe(204);
      expect(await memberIds(room)).toEqual([s.adminId, a.id, b.id, c.id]);
    });

    it('stores nothing for a public room (204)', async () => {
      const room = await createRoom('Open Invites', 'public');
      const a = await createUser('Public Invitee');
      const version = await versionOf('rooms', room);
      expect((await call('POST', `room/${room}/invite/${a.id}`, { body: { reason: 'Come along' } })).status).toBe(204);
      expect((await db.query('SELECT user_id FROM room_members WHERE room_id = $1', [room]))).toEqual([]);
      expect(await participantIds(room)).toEqual([]);
      expect(await versionOf('rooms', room)).toBe(version);
    });

    it('answers 400 for a reason past 250 characters or not text, 404 for an unknown room or user', async () => {
      const room = await createRoom('Strict Invites', 'private');
      const a = await createUser('Strict Invitee');
      expect((await call('POST', `room/${room}/invite/${a.id}`, { body: { reason: 'r'.repeat(250) } })).status).toBe(204);
      expect(errorOf(await call('POST', `room/${room}/invite/${a.id}`, { body: { reason: 'r'.repeat(251) } })))
        .toEqual({ status: 400, code: 400, type: 'Bad Request', message: 'reason: must be at most 250 characters (got 251)' });
      expect(errorOf(await call('POST', `room/${room}/invite/${a.id}`, { body: { reason: 5 } }))).toMatchObject({ status: 400, message: /^reason: / });
      expect(errorOf(await call('POST', `room/${room}/invite/${a.id}`, { body: '[1]' }))).toMatchObject({ status: 400 });
      expect(errorOf(await call('POST', `room/${room}/invite/999999`))).toMatchObject({ status: 404, message: 'User 999999 not found' });
      expect(errorOf(await call('POST', `room/999999/invite/${a.id}`))).toMatchObject({ status: 404, message: 'Room 999999 not found' });
    });
  });

  describe('PUT and DELETE /v2/room/{room}/participant/{user}', () => {
    it('lets a user enter with their own token of any scope: 204 and room_enter as specified', async () => {
      const room = await createRoom('Lobby', 'public');
      const a = await createUser('Entering User');
      const token = await s.personalToken(a.id, ['send_message']);
      const res = await v2(stack.baseUrl, 'PUT', `room/${room}/participant/${a.id}`, { token });
      expect([res.status, res.text]).toEqual([204, '']);
      const event = await capture.waitFor(ENTERED, ofRoomAndUser(room, a.id));
      // Field by field: Room object (no members link for a public room) and User object.
      const { room: r, sender } = event.payload;
      expect(Object.keys(event.payload).sort()).toEqual(['room', 'sender']);
      expect(Object.keys(r).sort()).toEqual(['id', 'is_archived', 'links', 'name', 'privacy', 'version']);
      expect(Object.keys(r.links).sort()).toEqual(['participants', 'self', 'webhooks']);
      expect(Object.keys(sender).sort()).toEqual(['id', 'links', 'mention_name', 'name', 'version']);
      expect(event.payload).toEqual({ room: await roomObject(room, 'Lobby', 'public'), sender: await userObject(a) });
      expect(await participantIds(room)).toEqual([a.id]);
    });

    it('counts entering twice as one entry (one room_enter)', async () => {
      const room = await createRoom('Revolving Door', 'public');
      const a = await createUser('Twice Entering');
      expect((await call('PUT', `room/${room}/participant/${a.id}`)).status).toBe(204);
      expect((await call('PUT', `room/${room}/participant/${encodeURIComponent(a.email)}`)).status).toBe(204);
      expect(await participantIds(room)).toEqual([a.id]);
      // The exit is published after anything the second entry would have published.
      expect((await call('DELETE', `room/${room}/participant/${a.id}`)).status).toBe(204);
      await capture.waitFor(EXITED, ofRoomAndUser(room, a.id));
      expect(capture.of(ENTERED, ofRoomAndUser(room, a.id))).toHaveLength(1);
    });

    it('exits (204, room_exit as specified); exiting when not in the room is 204 with no event', async () => {
      const room = await createRoom('Exit Hall', 'private');
      const a = await createUser('Exiting User');
      await call('PUT', `room/${room}/member/${a.id}`);
      const token = await s.personalToken(a.id, ['view_group']);
      expect((await v2(stack.baseUrl, 'PUT', `room/${room}/participant/${a.id}`, { token })).status).toBe(204);
      const entered = await capture.waitFor(ENTERED, ofRoomAndUser(room, a.id));
      expect(entered.payload.room.links.members).toBe(`${BASE}/v2/room/${room}/member`);

      const res = await v2(stack.baseUrl, 'DELETE', `room/${room}/participant/${a.id}`, { token });
      expect([res.status, res.text]).toEqual([204, '']);
      const exit = await capture.waitFor(EXITED, ofRoomAndUser(room, a.id));
      expect(exit.payload).toEqual({ room: await roomObject(room, 'Exit Hall', 'private'), sender: await userObject(a) });
      expect(await participantIds(room)).toEqual([]);

      expect((await v2(stack.baseUrl, 'DELETE', `room/${room}/participant/${a.id}`, { token })).status).toBe(204);
      // Entering again shows the second exit made no event in between.
      await v2(stack.baseUrl, 'PUT', `room/${room}/participant/${a.id}`, { token });
      await capture.waitFor(ENTERED, (e) => ofRoomAndUser(room, a.id)(e) && e.id !== entered.id);
      expect(capture.of(EXITED, ofRoomAndUser(room, a.id))).toHaveLength(1);
    });

    it("refuses another user's participation (403) unless the room's owner or a group admin moves them, with admin_room or admin_group", async () => {
      const owner = await createUser('Guard Owner');
      const room = await createRoom('Guarded Room', 'public', owner.id);
      const [a, b] = [await createUser('Mover A'), await createUser('Moved B')];
      const own = await s.personalToken(a.id, ['manage_rooms', 'view_group', 'send_message']);
      for (const verb of ['PUT', 'DELETE']) {
        const res = await v2(stack.baseUrl, verb, `room/${room}/participant/${b.id}`, { token: own });
        expect(errorOf(res)).toEqual({
          status: 403, code: 403, type: 'Forbidden',
          message: `Only user ${b.id} themselves, or the room's owner or a group admin with a token with the scope admin_room or admin_group, ` +
            'may make them enter or exit a room.',
        });
      }
      // admin_room no longer lets any user move anyone (forged room_enter/room_exit): the room is the owner's and group admins'.
      const anyAdminRoom = await s.personalToken(a.id, ['admin_room']);
      for (const verb of ['PUT', 'DELETE']) {
        expect(errorOf(await v2(stack.baseUrl, verb, `room/${room}/participant/${b.id}`, { token: anyAdminRoom }))).toEqual({
          status: 403, code: 403, type: 'Forbidden', message: "Only the room's owner and group admins may move other people in or out of room Guarded Room.",
        });
      }
      expect(await participantIds(room)).toEqual([]);

      // admin_group counts only on a group admin's token (s.adminId is one).
      for (const [scope, holder] of [['admin_room', owner.id], ['admin_group', s.adminId]] as const) {
        const admin = await s.personalToken(holder, [scope]);
        expect((await v2(stack.baseUrl, 'PUT', `room/${room}/participant/${b.id}`, { token: admin })).status).toBe(204);
        expect(await participantIds(room)).toEqual([b.id]);
        expect((await v2(stack.baseUrl, 'DELETE', `room/${room}/participant/${b.id}`, { token: admin })).status).toBe(204);
        expect(await participantIds(room)).toEqual([]);
      }
      expect(capture.of(ENTERED, ofRoomAndUser(room, b.id))).toHaveLength(2);
    });

    it('lets only members, the owner and group admins into a private room; an outsider is answered as if it did not exist', async () => {
      const room = await createRoom('Members Only', 'private');
      const a = await createUser('Outsider');
      const token = await s.personalToken(a.id, ['view_group']);
      const refused = await v2(stack.baseUrl, 'PUT', `room/${room}/participant/${a.id}`, { token });
      expect(errorOf(refused)).toEqual({ status: 404, code: 404, type: 'Not Found', message: `Room ${room} not found` });
      expect(refused.text).not.toContain('Members Only');
      expect(errorOf(await v2(stack.baseUrl, 'PUT', `room/Members Only/participant/${a.id}`, { token })))
        .toEqual({ status: 404, code: 404, type: 'Not Found', message: 'Room Members Only not found' });
      // Leaving a room one is not in, that one may not see: the same answer.
      expect(errorOf(await v2(stack.baseUrl, 'DELETE', `room/${room}/participant/${a.id}`, { token })))
        .toEqual({ status: 404, code: 404, type: 'Not Found', message: `Room ${room} not found` });
      // An administrator cannot take a non-member in either (they may see the room: told why).
      expect(errorOf(await call('PUT', `room/${room}/participant/${a.id}`))).toEqual({
        status: 403, code: 403, type: 'Forbidden',
        message: `User ${a.id} is not a member of the private room Members Only: only its members, its owner and group admins may enter it.`,
      });
      expect(await participantIds(room)).toEqual([]);
      await call('POST', `room/${room}/invite/${a.id}`, { body: { reason: 'join us' } });
      expect((await v2(stack.baseUrl, 'PUT', `room/${room}/participant/${a.id}`, { token })).status).toBe(204);
      expect(await participantIds(room)).toEqual([a.id]);
      // A group admin enters a private room they are not a member of (the private-room rule lets them see it).
      expect((await call('PUT', `room/${room}/participant/${s.adminId}`)).status).toBe(204);
    });

    it('answers 400 for entering an archived room; leaving one is allowed', async () => {
      const room = await createRoom('Dusty Room', 'public');
      const [a, b] = [await createUser('Archivist'), await createUser('Latecomer')];
      expect((await call('PUT', `room/${room}/participant/${a.id}`)).status).toBe(204);
      await db.query('UPDATE rooms SET is_archived = true WHERE id = $1', [room]);
      expect(errorOf(await call('PUT', `room/${room}/participant/${b.id}`)))
        .toEqual({ status: 400, code: 400, type: 'Bad Request', message: 'Room Dusty Room is archived: nobody may enter it until it is unarchived.' });
      expect((await call('DELETE', `room/${room}/participant/${a.id}`)).status).toBe(204);
      const exit = await capture.waitFor(EXITED, ofRoomAndUser(room, a.id));
      expect(exit.payload.room).toEqual(await roomObject(room, 'Dusty Room', 'public', true));
    });

    it('answers 404 for an unknown room or user', async () => {
      const room = await createRoom('Lookup Room', 'public');
      for (const verb of ['PUT', 'DELETE']) {
        expect(errorOf(await call(verb, `room/999999/participant/${s.adminId}`))).toMatchObject({ status: 404, message: 'Room 999999 not found' });
        expect(errorOf(await call(verb, `room/${room}/participant/999999`))).toMatchObject({ status: 404, message: 'User 999999 not found' });
        expect(errorOf(await call(verb, `room/${room}/participant/nobody@example.com`))).toMatchObject({ status: 404, message: 'User nobody@example.com not found' });
      }
    });
  });

  describe('GET /v2/room/{room}/participant', () => {
    it('lists who is in the room in the order they entered, a page at a time; include-offline is ignored', async () => {
      const room = await createRoom('Busy Room', 'public');
      const users = [await createUser('Third In'), await createUser('First In'), await createUser('Second In')];
      for (const u of [users[1], users[2], users[0]]) expect((await call('PUT', `room/${room}/participant/${u.id}`)).status).toBe(204);

      const all = await call('GET', `room/${room}/participant`, { query: { 'include-offline': 'true' } });
      expect(all.json).toEqual({
        items: [item(users[1]), item(users[2]), item(users[0])],
        startIndex: 0,
        maxResults: 100,
        links: { self: `${BASE}/v2/room/${room}/participant` },
      });
      const page = await call('GET', `room/${room}/participant`, { query: { 'max-results': 1, 'start-index': 1, 'include-offline': 'whatever' } });
      expect(page.json.items).toEqual([item(users[2])]);
      expect(page.json.links).toEqual({
        self: `${BASE}/v2/room/${room}/participant`,
        prev: `${BASE}/v2/room/${room}/participant?include-offline=whatever&start-index=0&max-results=1`,
        next: `${BASE}/v2/room/${room}/participant?include-offline=whatever&start-index=2&max-results=1`,
      });
      expect(errorOf(await call('GET', 'room/999999/participant'))).toMatchObject({ status: 404, message: 'Room 999999 not found' });
    });
  });

  describe('exits made by other changes', () => {
    it('deleting a user exits them from every room they are in, one room_exit each before user.deleted', async () => {
      const [pub, priv, other] = [await createRoom('Exit Pub', 'public'), await createRoom('Exit Priv', 'private'), await createRoom('Exit Other', 'public')];
      const [a, b] = [await createUser('Departing User'), await createUser('Staying User')];
      await call('PUT', `room/${priv}/member/${a.id}`);
      for (const r of [pub, priv]) expect((await call('PUT', `room/${r}/participant/${a.id}`)).status).toBe(204);
      expect((await call('PUT', `room/${pub}/participant/${b.id}`)).status).toBe(204);
      expect((await call('PUT', `room/${other}/participant/${b.id}`)).status).toBe(204);
      await capture.waitFor(ENTERED, ofRoomAndUser(other, b.id));
      const expected = [
        { room: await roomObject(pub, 'Exit Pub', 'public'), sender: await userObject(a) },
        { room: await roomObject(priv, 'Exit Priv', 'private'), sender: await userObject(a) },
      ];

      expect((await v1(stack.baseUrl, 'POST', 'users/delete', { auth_token: s.v1Admin, user_id: a.id })).status).toBe(200);
      const deleted = await capture.waitFor('user.deleted.v1', (e) => e.payload.user.id === a.id);
      const exits = capture.of(EXITED, (e) => e.payload.sender.id === a.id);
      expect(exits.map((e) => e.payload)).toEqual(expected);
      // Before the user change, naming the user as they were.
      const order = capture.events.map((e) => e.envelope.id);
      for (const e of exits) expect(order.indexOf(e.id)).toBeLessThan(order.indexOf(deleted.id));
      expect(deleted.payload.user.version).not.toBe(expected[0].sender.version);

      expect(await participantIds(pub)).toEqual([b.id]);
      expect(await participantIds(priv)).toEqual([]);
      expect(await participantIds(other)).toEqual([b.id]);
      expect(capture.of(EXITED, (e) => e.payload.sender.id === b.id)).toEqual([]);
    });

    it('deleting a room exits everyone in it, one room_exit each before room_deleted', async () => {
      const room = await createRoom('Sinking Room', 'private');
      const [a, b, c] = [await createUser('Crew A'), await createUser('Crew B'), await createUser('Crew Ashore')];
      for (const u of [a, b, c]) await call('PUT', `room/${room}/member/${u.id}`);
      for (const u of [b, a]) expect((await call('PUT', `room/${room}/participant/${u.id}`)).status).toBe(204);
      await capture.waitFor(ENTERED, ofRoomAndUser(room, a.id));
      const roomAsItWas = await roomObject(room, 'Sinking Room', 'private');
      const senders = { [a.id]: await userObject(a), [b.id]: await userObject(b) };

      expect((await v1(stack.baseUrl, 'POST', 'rooms/delete', { auth_token: s.v1Admin, room_id: room })).status).toBe(200);
      const deleted = await capture.waitFor('room.deleted.v2', (e) => e.payload.room.id === room);
      expect(deleted.payload.room).toEqual(roomAsItWas);
      const exits = capture.of(EXITED, (e) => e.payload.room.id === room);
      expect(exits.map((e) => e.payload.sender.id).sort((x, y) => x - y)).toEqual([a.id, b.id].sort((x, y) => x - y));
      for (const e of exits) expect(e.payload).toEqual({ room: roomAsItWas, sender: senders[e.payload.sender.id] });
      const order = capture.events.map((e) => e.envelope.id);
      for (const e of exits) expect(order.indexOf(e.id)).toBeLessThan(order.indexOf(deleted.id));
      expect(errorOf(await call('GET', `room/${room}/participant`))).toMatchObject({ status: 404 });
    });
  });
});
