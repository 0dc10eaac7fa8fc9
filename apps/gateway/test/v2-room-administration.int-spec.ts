import { DataSource } from 'typeorm';
import { Stack, startStack, v1, V1Response } from '../../../test/support/harness';
import { v2, V2CallOptions, v2Session, V2Session } from './v2-helpers';

const errorOf = (res: V1Response) => ({ status: res.status, code: res.json?.error?.code, type: res.json?.error?.type, message: res.json?.error?.message });
const DELIVERY = '6f1c2a4e-3b5d-5e7f-8a9b-0c1d2e3f4a5b';

/**
 * A room, public as much as private, is administered by its owner and group admins: deleting
 * it, renaming it, changing its privacy, owner or archived state. Whoever may use it still sets
 * its topic. A user's webhook is its creator's, the room owner's and group admins': to any other
 * user it is not there (404), and the room's list shows them only their own.
 */
describe('v2 room administration and users\' webhooks: the owner\'s and group admins\' (real services)', () => {
  let stack: Stack;
  let db: DataSource;
  let s: V2Session;
  let n = 0;
  let ownerId: number;
  let owner: string;
  let otherId: number;
  let other: string;
  let creator: string;

  const as = (token: string) => (verb: string, path: string, opts: V2CallOptions = {}) => v2(stack.baseUrl, verb, path, { token, ...opts });
  const publicRoom = async (name = `Open ${n++}`) => {
    const res = await as(s.token)('POST', 'room', { body: { name, topic: 'the plan', owner_user_id: ownerId } });
    if (res.status !== 201) throw new Error(`POST /v2/room answered ${res.status}: ${res.text}`);
    return { id: res.json.id as number, name };
  };
  const refused = (what: string, name: string) => ({
    status: 403, code: 403, type: 'Forbidden', message: `Only the room's owner and group admins may ${what} room ${name}.`,
  });
  const roomRow = async (id: number) =>
    (await db.query('SELECT name, privacy, topic, owner_user_id, is_archived, guest_access_token, version FROM rooms WHERE id = $1', [id]))[0];
  const webhookRows = async (id: number) => db.query('SELECT id, url, key, enabled FROM webhooks WHERE room_id = $1 ORDER BY id', [id]);

  beforeAll(async () => {
    stack = await startStack({ gateway: { V2_RATE_LIMIT_MAX: '100000', COMMAND_TIMEOUT_MS: '1500' }, rooms: true, dispatcher: false });
    db = stack.rooms!.get(DataSource);
    s = await v2Session(stack);
    ownerId = await s.createUser('Room Owner');
    otherId = await s.createUser('Other User');
    // A personal token's default scopes: every one, admin_room and manage_rooms included.
    owner = await s.personalToken(ownerId);
    other = await s.personalToken(otherId);
    creator = await s.personalToken(await s.createUser('Webhook Creator'));
  });
  afterAll(async () => stack?.stop());

  it('refuses a user who is not the owner to delete, rename, make private, archive or give away a public room, and changes nothing', async () => {
    const room = await publicRoom();
    const before = await roomRow(room.id);
    const call = as(other);
    for (const [verb, body, what] of [
      ['DELETE', undefined, 'delete'],
      ['PUT', { privacy: 'private' }, 'change the privacy of'],
      // HipChat's PUT states the whole room: the first change that administers it is named.
      ['PUT', { name: room.name, privacy: 'private', is_archived: false, topic: 'mine now', owner: { id: otherId } }, 'change the privacy of'],
      ['PUT', { name: `${room.name} renamed` }, 'rename'],
      ['PUT', { is_archived: true }, 'archive'],
      ['PUT', { owner_user_id: otherId }, 'change the owner of'],
      ['PUT', { is_guest_accessible: true }, 'change guest access to'],
    ] as Array<[string, unknown, string]>) {
      expect([verb, body, errorOf(await call(verb, `room/${room.id}`, { body }))]).toEqual([verb, body, refused(what, room.name)]);
    }
    expect(errorOf(await call('DELETE', `room/${encodeURIComponent(room.name)}`))).toEqual(refused('delete', room.name));
    expect(await roomRow(room.id)).toEqual(before);
    expect((await call('GET', `room/${room.id}`)).status).toBe(200);
  });

  it('lets any user who may use the room set its topic, by the topic endpoint or by a PUT that changes nothing else', async () => {
    const room = await publicRoom();
    const call = as(other);
    expect((await call('PUT', `room/${room.id}/topic`, { body: { topic: 'by the topic endpoint' } })).status).toBe(204);
    expect((await roomRow(room.id)).topic).toBe('by the topic endpoint');
    const put = await call('PUT', `room/${room.id}`, {
      body: { name: room.name, privacy: 'public', is_archived: false, is_guest_accessible: false, topic: 'by PUT', owner: { id: ownerId } },
    });
    expect([put.status, put.text]).toEqual([204, '']);
    expect((await roomRow(room.id)).topic).toBe('by PUT');
    // v1 is not a user's: its admin token sets the topic and deletes, as before.
    expect((await v1(stack.baseUrl, 'POST', 'rooms/topic', { auth_token: s.v1Admin, room_id: String(room.id), topic: 'over v1' })).status).toBe(200);
    expect((await v1(stack.baseUrl, 'POST', 'rooms/delete', { auth_token: s.v1Admin, room_id: String(room.id) })).status).toBe(200);
    expect(await roomRow(room.id)).toBeUndefined();
  });

  it('lets the owner and a group admin administer it', async () => {
    for (const [who, token] of [['owner', () => owner], ['group admin', () => s.token]] as const) {
      const room = await publicRoom();
      const call = as(token());
      const ok = async (verb: string, path: string, body?: unknown) => {
        const res = await call(verb, path, { body });
        expect([who, verb, body, res.status]).toEqual([who, verb, body, 204]);
      };
      await ok('PUT', `room/${room.id}`, { name: `${room.name} by the ${who}`, privacy: 'private', is_archived: true, is_guest_accessible: false });
      expect(await roomRow(room.id)).toMatchObject({ name: `${room.name} by the ${who}`, privacy: 'private', is_archived: true });
      await ok('PUT', `room/${room.id}`, { is_archived: false, privacy: 'public' });
      await ok('DELETE', `room/${room.id}`);
      expect(await roomRow(room.id)).toBeUndefined();
    }
  });

  it('hides a user\'s webhook from other users (404, not in their list, unchanged) and shows it to its creator, the owner and a group admin', async () => {
    const room = await publicRoom();
    const made = await as(creator)('POST', `room/${room.id}/webhook`, {
      body: { url: 'https://receiver.example.com/deploys?key=SECRETQ', event: 'room_message', key: 'deploys' },
    });
    expect(made.status).toBe(201);
    const id = made.json.id as number;
    // The other user's own webhook in the room: theirs to see (registering stays open to admin_room).
    const theirs = await as(other)('POST', `room/${room.id}/webhook`, { body: { url: 'https://receiver.example.com/mine', event: 'room_topic_change' } });
    expect(theirs.status).toBe(201);
    const before = await webhookRows(room.id);

    const call = as(other);
    const notFound = (ref: number | string) => ({ status: 404, code: 404, type: 'Not Found', message: `Webhook ${ref} not found` });
    for (const [verb, path, body] of [
      ['GET', `room/${room.id}/webhook/${id}`, undefined],
      ['DELETE', `room/${room.id}/webhook/${id}`, undefined],
      ['POST', `room/${room.id}/webhook/${id}/enable`, undefined],
      ['GET', `room/${room.id}/webhook/${id}/delivery`, undefined],
      ['GET', `room/${room.id}/webhook/${id}/delivery/${DELIVERY}`, undefined],
      ['POST', `room/${room.id}/webhook/${id}/delivery/${DELIVERY}/redeliver`, undefined],
      ['POST', `room/${room.id}/webhook/${id}/recover`, { since: '2026-01-01T00:00:00Z' }],
    ] as Array<[string, string, unknown]>) {
      expect([verb, path, errorOf(await call(verb, path, { body }))]).toEqual([verb, path, notFound(id)]);
    }
    // A key names the caller's own webhooks: another user's key names none of theirs.
    expect(errorOf(await call('GET', `room/${room.id}/extension/webhook/deploys`))).toEqual(notFound('deploys'));
    expect(errorOf(await call('DELETE', `room/${room.id}/extension/webhook/deploys`))).toEqual(notFound('deploys'));
    const list = await call('GET', `room/${room.id}/webhook`);
    expect([list.status, list.json.items.map((w: { id: number }) => w.id)]).toEqual([200, [theirs.json.id]]);
    expect(list.text).not.toContain('SECRETQ');
    expect(await webhookRows(room.id)).toEqual(before);

    for (const [who, token] of [['creator', () => creator], ['owner', () => owner], ['group admin', () => s.token]] as const) {
      const as2 = as(token());
      const got = await as2('GET', `room/${room.id}/webhook/${id}`);
      // Its URL whole to its creator only: the owner and group admins see the query masked.
      const url = who === 'creator' ? 'https://receiver.example.com/deploys?key=SECRETQ' : 'https://receiver.example.com/deploys?key=***';
      expect([who, got.status, got.json.url]).toEqual([who, 200, url]);
      const listed = (await as2('GET', `room/${room.id}/webhook`)).json.items.map((w: { id: number }) => w.id);
      expect([who, listed]).toEqual([who, who === 'creator' ? [id] : [id, theirs.json.id]]);
      expect([who, (await as2('POST', `room/${room.id}/webhook/${id}/enable`)).status]).toEqual([who, 204]);
      // Access granted, the delivery log is the dispatchers' to answer: none runs here (503).
      expect([who, (await as2('GET', `room/${room.id}/webhook/${id}/delivery`)).status]).toEqual([who, 503]);
    }
    expect((await as(owner)('DELETE', `room/${room.id}/webhook/${id}`)).status).toBe(204);
    expect((await as(s.token)('DELETE', `room/${room.id}/webhook/${theirs.json.id}`)).status).toBe(204);
    expect(await webhookRows(room.id)).toEqual([]);
  });
});
