/**
 * The access matrix: for every operation of the access model (libs/contracts/src/access),
 * every kind of actor, public and private rooms, the status the model expects, checked
 * against the running services (gateway, rooms, dispatcher). An operation the gateway serves
 * with no row in the model, or with no probe here, fails the test: a new route cannot ship
 * without its rule.
 */
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ACCESS_MODEL, accessRuleOf, decide, grantableScopes, isRoomOperation, Principal, PRINCIPALS, V2_SCOPES,
} from '@app/contracts';
import { eventually, Stack, startStack, v1 } from '../../../test/support/harness';
import { v2, v2Session, V2Session } from './v2-helpers';

type Privacy = 'public' | 'private';
/** The model's principals, and a room token and a room add-on of another room. */
type Who = Principal | 'room_token_elsewhere' | 'addon_elsewhere';
const WHO: readonly Who[] = [...PRINCIPALS, 'room_token_elsewhere', 'addon_elsewhere'];
const USERS: readonly Who[] = ['group_admin', 'room_owner', 'member', 'user', 'creator'];
const V1: readonly Who[] = ['v1_admin', 'v1_notification'];

interface Room {
  id: number;
  name: string;
  privacy: Privacy;
  /** The creator's webhook (keyed), one delivery of it, a message and a file of the room. */
  webhookId: number;
  webhookKey: string;
  /** The creator's bridge, and one delivery of it (ended: an ordered lane's may be redelivered then only). */
  bridgeId: number;
  bridgeDeliveryId: string;
  deliveryId: string;
  messageId: string;
  fileUrl: string;
}

interface Req { method: string; path: string; body?: unknown; query?: Record<string, string>; raw?: boolean }

interface Probe {
  op: string;
  /** Build what the actor sends (may set up a target of its own first). */
  request(room: Room, who: Who): Promise<Req> | Req;
  success: number;
  /** Rooms of these privacies only (member lists are for private rooms). */
  privacies?: Privacy[];
  /** For `self` rows: the path's user is the actor. */
  onThemselves?: boolean;
  /** A fresh room for each cell (the operation changes or removes it). */
  fresh?: boolean;
}

const RECEIVER_PATH = '/hook';

describe('the access matrix: every operation, every kind of actor, against the running services', () => {
  let stack: Stack;
  let s: V2Session;
  let receiver: Server;
  let receiverUrl: string;
  /** The add-on: serves its descriptor, takes installation callbacks (their credentials, by room). */
  const installs: Array<{ oauthId: string; oauthSecret: string }> = [];
  const users: Record<string, { id: number; email: string; token: string }> = {};
  const tokens = new Map<string, string>();
  const rooms: Record<Privacy, Room> = {} as Record<Privacy, Room>;
  let elsewhere: { id: number; roomToken: string; addonToken: string };
  let n = 0;

  const call = (token: string, req: Req) => v2(stack.baseUrl, req.method, req.path.replace(/^\/v2\//, ''), { token, body: req.body, query: req.query });
  const admin = (method: string, path: string, body?: unknown) => v2(stack.baseUrl, method, path, { token: s.token, body });

  const makeUser = async (label: string, isAdmin = false) => {
    const email = `${label}${n++}@example.com`;
    const id = await s.createUser(label, email, isAdmin ? { is_group_admin: '1' } : {});
    const token = await s.personalToken(id, isAdmin ? [...V2_SCOPES] : grantableScopes(false));
    return { id, email, token };
  };

  const installAddon = async (roomId?: number): Promise<string> => {
    const before = installs.length;
    const res = await admin('POST', 'addons', { url: `${receiverUrl}/descriptor/${n++}`, ...(roomId ? { room: String(roomId) } : {}) });
    if (res.status !== 201) throw new Error(`add-on install answered ${res.status}: ${res.text}`);
    await eventually(() => expect(installs.length).toBeGreaterThan(before));
    const { oauthId, oauthSecret } = installs[installs.length - 1];
    const scope = roomId ? 'send_notification view_room view_messages admin_room manage_rooms view_group send_message'
      : 'send_notification view_room view_messages admin_room manage_rooms view_group send_message admin_group';
    const got = await fetch(`${stack.baseUrl}/v2/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${oauthId}:${oauthSecret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&scope=${encodeURIComponent(scope)}`,
    });
    const json = (await got.json()) as { access_token?: string };
    if (!json.access_token) throw new Error(`no add-on token: ${JSON.stringify(json)}`);
    return json.access_token;
  };

  /** A room of the owner, with the member and the creator in it (private rooms), the creator's webhook, a message and a file. */
  const makeRoom = async (privacy: Privacy, withDelivery = false): Promise<Room> => {
    const name = `Matrix ${privacy} ${n++}`;
    const made = await v1(stack.baseUrl, 'POST', 'rooms/create', { auth_token: s.v1Admin, name, owner_user_id: users.room_owner.id, privacy });
    if (made.status !== 200) throw new Error(`rooms/create answered ${made.status}: ${made.text}`);
    const id = made.json.room.room_id as number;
    if (privacy === 'private') {
      for (const who of ['member', 'creator']) expect((await admin('PUT', `room/${id}/member/${users[who].id}`)).status).toBe(204);
    }
    const webhookKey = `matrix-${n++}`;
    const hook = await call(users.creator.token, { method: 'PUT', path: `room/${id}/extension/webhook/${webhookKey}`, body: { url: `${receiverUrl}${RECEIVER_PATH}?secret=s3cret`, event: 'room_message' } });
    if (hook.status !== 201) throw new Error(`webhook answered ${hook.status}: ${hook.text}`);
    const webhookId = hook.json.id as number;
    const bridge = await call(users.creator.token, { method: 'POST', path: `room/${id}/bridge`, body: { kind: 'mattermost', url: `${receiverUrl}${RECEIVER_PATH}` } });
    if (bridge.status !== 201) throw new Error(`bridge answered ${bridge.status}: ${bridge.text}`);
    const bridgeId = bridge.json.id as number;
    const sent = await call(users.room_owner.token, { method: 'POST', path: `room/${id}/message`, body: { message: 'for the matrix' } });
    if (sent.status !== 201) throw new Error(`message answered ${sent.status}: ${sent.text}`);
    let deliveryId = '';
    let bridgeDeliveryId = '';
    if (withDelivery) {
      deliveryId = await eventually(async () => {
        const log = await admin('GET', `room/${id}/webhook/${webhookId}/delivery`);
        expect(log.json.items?.[0]?.id).toEqual(expect.any(String));
        return log.json.items[0].id as string;
      }, 30_000);
      bridgeDeliveryId = await eventually(async () => {
        const log = await admin('GET', `room/${id}/bridge/${bridgeId}/delivery`);
        expect(log.json.items?.[0]?.status).toMatch(/^(delivered|failed)$/);
        return log.json.items[0].id as string;
      }, 30_000);
    }
    const form = new FormData();
    form.append('metadata', new Blob([JSON.stringify({ message: 'a file' })], { type: 'application/json' }));
    form.append('file', new Blob(['matrix file'], { type: 'text/plain' }), 'matrix.txt');
    const shared = await fetch(`${stack.baseUrl}/v2/room/${id}/share/file`, { method: 'POST', headers: { authorization: `Bearer ${users.room_owner.token}` }, body: form });
    if (shared.status !== 204) throw new Error(`share/file answered ${shared.status}: ${await shared.text()}`);
    const history = await admin('GET', `room/${id}/history`);
    const withFile = history.json.items.find((m: { file?: { url: string } }) => m.file);
    const messageId = history.json.items[0].id as string;
    // The link without a signature: what is asked is whether the actor's own credentials open it.
    const fileUrl = new URL(withFile.file.url);
    return { id, name, privacy, webhookId, webhookKey, bridgeId, bridgeDeliveryId, deliveryId, messageId, fileUrl: `${fileUrl.pathname}` };
  };

  const tokenOf = async (who: Who, room: Room): Promise<string> => {
    if (who in users) return users[who].token;
    if (who === 'room_token_elsewhere') return elsewhere.roomToken;
    if (who === 'addon_elsewhere') return elsewhere.addonToken;
    const key = `${who}:${room.id}`;
    if (!tokens.has(key)) {
      if (who === 'room_token') tokens.set(key, await stack.createToken('room', 'matrix', { room: String(room.id) }));
      else if (who === 'addon_in_room') tokens.set(key, await installAddon(room.id));
      else tokens.set(key, tokens.get(who)!);
    }
    return tokens.get(key)!;
  };

  /** A user of its own for each cell that changes or removes one. */
  const victim = async () => (await makeUser('Victim')).id;
  /** The user a participant move acts on: the actor (themselves) or someone else. */
  const moved = async (room: Room, who: Who, self: boolean) => {
    if (self && who in users) return users[who].id;
    const id = await victim();
    if (room.privacy === 'private') expect((await admin('PUT', `room/${room.id}/member/${id}`)).status).toBe(204);
    return id;
  };

  /** A private message between the actor and the member (for an actor of no user, an id of none: it is refused before it is read). */
  const privateMessageWithMember = async (who: Who): Promise<string> => {
    if (!(who in users)) return '00000000-0000-4000-8000-000000000000';
    expect((await call(users[who].token, { method: 'POST', path: `user/${users.member.id}/message`, body: { message: 'read me' } })).status).toBe(204);
    const latest = await call(users[who].token, { method: 'GET', path: `user/${users.member.id}/history/latest` });
    return latest.json.items[latest.json.items.length - 1].id as string;
  };

  const PROBES: Probe[] = [
    { op: 'GET /v2/room', success: 200, request: () => ({ method: 'GET', path: 'room' }) },
    { op: 'POST /v2/room', success: 201, request: () => ({ method: 'POST', path: 'room', body: { name: `Made ${n++}`, owner_user_id: users.room_owner.id } }) },
    { op: 'GET /v2/room/{room}', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}` }) },
    { op: 'PUT /v2/room/{room}', success: 204, fresh: true, request: (r) => ({ method: 'PUT', path: `room/${r.id}`, body: { name: `${r.name} renamed`, privacy: r.privacy, is_archived: false, topic: 't', owner: { id: users.room_owner.id } } }) },
    { op: 'DELETE /v2/room/{room}', success: 204, fresh: true, request: (r) => ({ method: 'DELETE', path: `room/${r.id}` }) },
    { op: 'PUT /v2/room/{room}/topic', success: 204, request: (r) => ({ method: 'PUT', path: `room/${r.id}/topic`, body: { topic: `topic ${n++}` } }) },
    { op: 'GET /v2/room/{room}/statistics', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/statistics` }) },
    { op: 'POST /v2/room/{room}/message', success: 201, request: (r) => ({ method: 'POST', path: `room/${r.id}/message`, body: { message: 'matrix says hi' } }) },
    { op: 'POST /v2/room/{room}/notification', success: 204, request: (r) => ({ method: 'POST', path: `room/${r.id}/notification`, body: { message: 'matrix notification' } }) },
    { op: 'POST /v2/room/{room}/share/file', success: 204, request: (r) => ({ method: 'POST', path: `room/${r.id}/share/file`, raw: true }) },
    { op: 'GET /v2/room/{room}/history', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/history` }) },
    { op: 'GET /v2/room/{room}/history/latest', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/history/latest` }) },
    { op: 'GET /v2/room/{room}/history/{message}', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/history/${r.messageId}` }) },
    { op: 'GET /v2/room/{room}/events', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/events` }) },
    { op: 'PUT /v2/room/{room}/read', success: 204, request: (r) => ({ method: 'PUT', path: `room/${r.id}/read`, body: { message_id: r.messageId } }) },
    { op: 'GET /files/{path}', success: 200, request: (r) => ({ method: 'GET', path: r.fileUrl }) },
    { op: 'GET /v2/room/{room}/member', success: 200, privacies: ['private'], request: (r) => ({ method: 'GET', path: `room/${r.id}/member` }) },
    { op: 'PUT /v2/room/{room}/member/{user}', success: 204, privacies: ['private'], request: async (r) => ({ method: 'PUT', path: `room/${r.id}/member/${await victim()}` }) },
    {
      op: 'DELETE /v2/room/{room}/member/{user}', success: 204, privacies: ['private'],
      request: async (r) => {
        const id = await victim();
        expect((await admin('PUT', `room/${r.id}/member/${id}`)).status).toBe(204);
        return { method: 'DELETE', path: `room/${r.id}/member/${id}` };
      },
    },
    { op: 'POST /v2/room/{room}/invite/{user}', success: 204, privacies: ['private'], request: async (r) => ({ method: 'POST', path: `room/${r.id}/invite/${await victim()}`, body: { reason: 'join us' } }) },
    { op: 'GET /v2/room/{room}/participant', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/participant` }) },
    { op: 'PUT /v2/room/{room}/participant/{user}', success: 204, request: async (r, who) => ({ method: 'PUT', path: `room/${r.id}/participant/${await moved(r, who, false)}` }) },
    { op: 'PUT /v2/room/{room}/participant/{user}', success: 204, onThemselves: true, request: async (r, who) => ({ method: 'PUT', path: `room/${r.id}/participant/${await moved(r, who, true)}` }) },
    {
      op: 'DELETE /v2/room/{room}/participant/{user}', success: 204,
      request: async (r, who) => {
        const id = await moved(r, who, false);
        expect((await admin('PUT', `room/${r.id}/participant/${id}`)).status).toBe(204);
        return { method: 'DELETE', path: `room/${r.id}/participant/${id}` };
      },
    },
    {
      op: 'DELETE /v2/room/{room}/participant/{user}', success: 204, onThemselves: true,
      request: async (r, who) => ({ method: 'DELETE', path: `room/${r.id}/participant/${await moved(r, who, true)}` }),
    },
    { op: 'POST /v2/room/{room}/webhook', success: 201, request: (r) => ({ method: 'POST', path: `room/${r.id}/webhook`, body: { url: `${receiverUrl}${RECEIVER_PATH}`, event: 'room_topic_change' } }) },
    { op: 'GET /v2/room/{room}/webhook', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/webhook` }) },
    { op: 'GET /v2/room/{room}/webhook/{id}', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/webhook/${r.webhookId}` }) },
    { op: 'DELETE /v2/room/{room}/webhook/{id}', success: 204, fresh: true, request: (r) => ({ method: 'DELETE', path: `room/${r.id}/webhook/${r.webhookId}` }) },
    { op: 'POST /v2/room/{room}/webhook/{id}/enable', success: 204, request: (r) => ({ method: 'POST', path: `room/${r.id}/webhook/${r.webhookId}/enable` }) },
    { op: 'GET /v2/room/{room}/webhook/{id}/delivery', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/webhook/${r.webhookId}/delivery` }) },
    { op: 'GET /v2/room/{room}/webhook/{id}/delivery/{delivery}', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/webhook/${r.webhookId}/delivery/${r.deliveryId}` }) },
    { op: 'GET /v2/room/{room}/webhook/{id}/delivery-stats', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/webhook/${r.webhookId}/delivery-stats` }) },
    { op: 'POST /v2/room/{room}/webhook/{id}/delivery/{delivery}/redeliver', success: 202, request: (r) => ({ method: 'POST', path: `room/${r.id}/webhook/${r.webhookId}/delivery/${r.deliveryId}/redeliver` }) },
    { op: 'POST /v2/room/{room}/webhook/{id}/recover', success: 202, request: (r) => ({ method: 'POST', path: `room/${r.id}/webhook/${r.webhookId}/recover`, body: { since: new Date(Date.now() - 3_600_000).toISOString() } }) },
    { op: 'PUT /v2/room/{room}/extension/webhook/{key}', success: 201, request: (r) => ({ method: 'PUT', path: `room/${r.id}/extension/webhook/own-${n++}`, body: { url: `${receiverUrl}${RECEIVER_PATH}`, event: 'room_enter' } }) },
    { op: 'POST /v2/room/{room}/bridge', success: 201, request: (r) => ({ method: 'POST', path: `room/${r.id}/bridge`, body: { kind: 'slack', url: `${receiverUrl}${RECEIVER_PATH}` } }) },
    { op: 'GET /v2/room/{room}/bridge', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/bridge` }) },
    { op: 'GET /v2/room/{room}/bridge/{id}', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/bridge/${r.bridgeId}` }) },
    { op: 'PUT /v2/room/{room}/bridge/{id}', success: 200, request: (r) => ({ method: 'PUT', path: `room/${r.id}/bridge/${r.bridgeId}`, body: { kind: 'mattermost', url: `${receiverUrl}${RECEIVER_PATH}`, name: `put ${n++}` } }) },
    { op: 'DELETE /v2/room/{room}/bridge/{id}', success: 204, fresh: true, request: (r) => ({ method: 'DELETE', path: `room/${r.id}/bridge/${r.bridgeId}` }) },
    { op: 'POST /v2/room/{room}/bridge/{id}/enable', success: 204, request: (r) => ({ method: 'POST', path: `room/${r.id}/bridge/${r.bridgeId}/enable` }) },
    { op: 'POST /v2/room/{room}/bridge/{id}/test', success: 200, request: (r) => ({ method: 'POST', path: `room/${r.id}/bridge/${r.bridgeId}/test` }) },
    { op: 'GET /v2/room/{room}/bridge/{id}/delivery', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/bridge/${r.bridgeId}/delivery` }) },
    { op: 'GET /v2/room/{room}/bridge/{id}/delivery/{delivery}', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/bridge/${r.bridgeId}/delivery/${r.bridgeDeliveryId}` }) },
    { op: 'GET /v2/room/{room}/bridge/{id}/delivery-stats', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/bridge/${r.bridgeId}/delivery-stats?bucket=day` }) },
    { op: 'POST /v2/room/{room}/bridge/{id}/delivery/{delivery}/redeliver', success: 202, request: (r) => ({ method: 'POST', path: `room/${r.id}/bridge/${r.bridgeId}/delivery/${r.bridgeDeliveryId}/redeliver` }) },
    { op: 'POST /v2/room/{room}/bridge/{id}/recover', success: 202, request: (r) => ({ method: 'POST', path: `room/${r.id}/bridge/${r.bridgeId}/recover`, body: { since: new Date(Date.now() - 3_600_000).toISOString() } }) },
    { op: 'GET /v2/room/{room}/extension/webhook/{key}', success: 200, request: (r) => ({ method: 'GET', path: `room/${r.id}/extension/webhook/${r.webhookKey}` }) },
    { op: 'DELETE /v2/room/{room}/extension/webhook/{key}', success: 204, fresh: true, request: (r) => ({ method: 'DELETE', path: `room/${r.id}/extension/webhook/${r.webhookKey}` }) },
    { op: 'GET /v2/user', success: 200, request: () => ({ method: 'GET', path: 'user' }) },
    { op: 'POST /v2/user', success: 201, request: () => ({ method: 'POST', path: 'user', body: { name: 'Made User', email: `made${n++}@example.com` } }) },
    { op: 'GET /v2/user/{user}', success: 200, request: () => ({ method: 'GET', path: `user/${users.member.id}` }) },
    { op: 'PUT /v2/user/{user}', success: 204, request: async () => ({ method: 'PUT', path: `user/${await victim()}`, body: { name: 'Replaced', email: `replaced${n++}@example.com` } }) },
    { op: 'DELETE /v2/user/{user}', success: 204, request: async () => ({ method: 'DELETE', path: `user/${await victim()}` }) },
    { op: 'POST /v2/user/{user}/invitation', success: 201, request: async () => ({ method: 'POST', path: `user/${await victim()}/invitation` }) },
    { op: 'GET /v2/user/{user}/holdings', success: 200, request: () => ({ method: 'GET', path: `user/${users.member.id}/holdings` }) },
    { op: 'GET /v2/user/{user}/holdings', success: 200, onThemselves: true, request: (_r, who) => ({ method: 'GET', path: `user/${users[who].id}/holdings` }) },
    { op: 'POST /v2/user/{user}/message', success: 204, request: () => ({ method: 'POST', path: `user/${users.member.id}/message`, body: { message: 'psst' } }) },
    { op: 'GET /v2/user/{user}/history/latest', success: 200, request: () => ({ method: 'GET', path: `user/${users.member.id}/history/latest` }) },
    { op: 'PUT /v2/user/{user}/read', success: 204, request: async (_r, who) => ({ method: 'PUT', path: `user/${users.member.id}/read`, body: { message_id: await privateMessageWithMember(who) } }) },
    { op: 'GET /v2/user/{user}/chats', success: 200, request: () => ({ method: 'GET', path: `user/${users.member.id}/chats` }) },
    { op: 'GET /v2/user/{user}/chats', success: 200, onThemselves: true, request: (_r, who) => ({ method: 'GET', path: `user/${users[who].id}/chats` }) },
    { op: 'GET /v2/user/{user}/events', success: 200, request: () => ({ method: 'GET', path: `user/${users.member.id}/events` }) },
    { op: 'GET /v2/user/{user}/events', success: 200, onThemselves: true, request: (_r, who) => ({ method: 'GET', path: `user/${users[who].id}/events` }) },
    { op: 'GET /v2/emoticon', success: 200, request: () => ({ method: 'GET', path: 'emoticon' }) },
    { op: 'GET /v2/emoticon/{key}', success: 200, request: () => ({ method: 'GET', path: 'emoticon/allthethings' }) },
    { op: 'GET /v2/token', success: 200, request: () => ({ method: 'GET', path: 'token' }) },
    { op: 'POST /v2/token', success: 201, request: () => ({ method: 'POST', path: 'token', body: { label: 'matrix', scopes: ['view_room'] } }) },
    {
      op: 'DELETE /v2/token/{id}', success: 204,
      request: async (_r, who) => {
        // One of the actor's own tokens (a user's); anyone else asks for the group admin's.
        const owner = who in users ? users[who] : users.group_admin;
        const made = await v2(stack.baseUrl, 'POST', 'token', { token: owner.token, body: { label: 'to revoke', scopes: ['view_room'] } });
        const id = made.status === 201 ? made.json.id : (await admin('POST', 'token', { label: 'to revoke', scopes: ['view_room'] })).json.id;
        return { method: 'DELETE', path: `token/${id}` };
      },
    },
    { op: 'GET /v2/audit', success: 200, request: () => ({ method: 'GET', path: 'audit' }) },
    { op: 'GET /v2/addons', success: 200, request: () => ({ method: 'GET', path: 'addons' }) },
    { op: 'POST /v2/addons', success: 201, request: () => ({ method: 'POST', path: 'addons', body: { url: `${receiverUrl}/descriptor/${n++}` } }) },
    { op: 'GET /v2/addons/{id}', success: 200, request: async () => ({ method: 'GET', path: `addons/${(await admin('GET', 'addons')).json.items[0].id}` }) },
    {
      op: 'DELETE /v2/addons/{id}', success: 204,
      request: async () => {
        await installAddon();
        const list = await admin('GET', 'addons');
        return { method: 'DELETE', path: `addons/${list.json.items[list.json.items.length - 1].id}` };
      },
    },
  ];

  const V1_PROBES: Record<string, (r: Room) => Promise<Record<string, string>> | Record<string, string>> = {
    'rooms/create': () => ({ name: `v1 made ${n++}`, owner_user_id: String(users.room_owner.id) }),
    'rooms/delete': async () => ({ room_id: String((await makeRoom('public')).id) }),
    'rooms/history': (r) => ({ room_id: String(r.id), date: 'recent' }),
    'rooms/list': () => ({}),
    'rooms/message': (r) => ({ room_id: String(r.id), from: 'Matrix', message: 'v1 hello' }),
    'rooms/show': (r) => ({ room_id: String(r.id) }),
    'rooms/topic': (r) => ({ room_id: String(r.id), topic: `v1 topic ${n++}` }),
    'users/create': () => ({ name: 'v1 user', email: `v1made${n++}@example.com` }),
    'users/delete': async () => ({ user_id: String(await victim()) }),
    'users/list': () => ({}),
    'users/show': () => ({ user_id: String(users.member.id) }),
    'users/undelete': async () => {
      const id = await victim();
      expect((await v1(stack.baseUrl, 'POST', 'users/delete', { auth_token: s.v1Admin, user_id: id })).status).toBe(200);
      return { user_id: String(id) };
    },
    'users/update': async () => ({ user_id: String(await victim()), title: 'updated' }),
  };
  const V1_GETS = new Set(['rooms/history', 'rooms/list', 'rooms/show', 'users/list', 'users/show']);

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url!, 'http://x');
        // Each descriptor its own add-on (a key is installed group-wide once).
        const [, kind, suffix] = url.pathname.split('/');
        if (kind === 'descriptor') {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({
            key: `com.example.matrix${suffix}`, name: 'Matrix', description: 'The access matrix\'s add-on',
            links: { self: `${receiverUrl}/descriptor/${suffix}`, homepage: `${receiverUrl}/` },
            capabilities: {
              installable: { callbackUrl: `${receiverUrl}/installed`, allowRoom: true, allowGlobal: true },
              hipchatApiConsumer: { scopes: ['send_notification', 'view_room', 'view_messages', 'admin_room', 'manage_rooms', 'view_group', 'send_message', 'admin_group'] },
            },
          }));
        }
        if (url.pathname === '/installed' && req.method === 'POST') installs.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(req.method === 'DELETE' ? 204 : 200, { 'content-type': 'application/json' });
        res.end(req.method === 'DELETE' ? undefined : '{}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

    const open = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' };
    stack = await startStack({
      // Its 401 cells (a v1 token on v2, a v2 token on v1) are failed authentications of one address.
      gateway: { V2_RATE_LIMIT_MAX: '1000000', RATE_LIMIT_MAX: '1000000', FLOOD_CONTROL_MAX: '1000000', AUTH_FAILURE_RATE_LIMIT_MAX: '1000000', ...open },
      rooms: { ...open },
      dispatcher: { ...open, WEBHOOK_RETRY_SCHEDULE: '1s' },
    });
    s = await v2Session(stack);
    users.group_admin = await makeUser('Admin', true);
    for (const who of ['room_owner', 'member', 'user', 'creator']) users[who] = await makeUser(who);
    tokens.set('addon', await installAddon());
    tokens.set('v1_admin', s.v1Admin);
    tokens.set('v1_notification', await stack.createToken('notification', 'matrix'));
    for (const privacy of ['public', 'private'] as const) rooms[privacy] = await makeRoom(privacy, true);
    const other = await makeRoom('public');
    elsewhere = { id: other.id, roomToken: await stack.createToken('room', 'elsewhere', { room: String(other.id) }), addonToken: await installAddon(other.id) };
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  /** What the model expects of one actor in one cell: a status. */
  const expected = (probe: Probe, who: Who, privacy: Privacy): number => {
    const op = probe.op;
    const isV1Op = op.startsWith('v1 ');
    const isV1Actor = V1.includes(who);
    if (op !== 'GET /files/{path}' && isV1Op !== isV1Actor) return 401;
    const rule = accessRuleOf(op)!;
    if (rule.audience === 'link' && privacy === 'public') return probe.success;
    if (who === 'room_token_elsewhere' || who === 'addon_elsewhere') {
      if (rule.audience === 'link') return 404;
      if (isRoomOperation(op)) return 403;
      who = who === 'room_token_elsewhere' ? 'room_token' : 'addon_in_room';
    }
    const decision = decide(rule, who as Principal, { privacy, onThemselves: probe.onThemselves, isCreator: who === 'creator' });
    return decision === 'allowed' ? probe.success : decision === 'hidden' ? 404 : 403;
  };

  const send = async (probe: Probe, who: Who, room: Room): Promise<number> => {
    const req = await probe.request(room, who);
    const token = await tokenOf(who, room);
    if (probe.op === 'GET /files/{path}') {
      const res = await fetch(`${stack.baseUrl}${req.path}`, { headers: { authorization: `Bearer ${token}` } });
      await res.arrayBuffer();
      return res.status;
    }
    if (req.raw) {
      const form = new FormData();
      form.append('metadata', new Blob([JSON.stringify({ message: 'a file' })], { type: 'application/json' }));
      form.append('file', new Blob(['x'], { type: 'text/plain' }), 'x.txt');
      const res = await fetch(`${stack.baseUrl}/v2/${req.path}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      await res.arrayBuffer();
      return res.status;
    }
    if (probe.op === 'GET /v2/room/{room}/events' || probe.op === 'GET /v2/user/{user}/events') {
      // The stream's status is the answer; it is not read.
      const ac = new AbortController();
      const res = await fetch(`${stack.baseUrl}/v2/${req.path}`, { headers: { authorization: `Bearer ${token}` }, signal: ac.signal });
      ac.abort();
      return res.status;
    }
    return (await call(token, req)).status;
  };

  it('has a rule for every operation the gateway serves, and a probe for every rule', async () => {
    const doc = (await (await fetch(`${stack.baseUrl}/docs/api/v2/openapi.json`)).json()) as { paths: Record<string, Record<string, { 'x-access'?: unknown }>> };
    const served: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const name = path.startsWith('/v1/') ? `v1 ${path.slice(4)}` : `${method.toUpperCase()} ${path}`;
        if (!op['x-access']) served.push(`${name}: no rule in the access model`);
      }
    }
    expect(served).toEqual([]);
    const probed = new Set([...PROBES.map((p) => p.op), ...Object.keys(V1_PROBES).map((m) => `v1 ${m}`)]);
    const unprobed = ACCESS_MODEL.filter((r) => r.audience !== 'public' && r.audience !== 'session').map((r) => r.operation).filter((op) => !probed.has(op));
    expect(unprobed).toEqual([]);
  });

  it('answers every actor as the model says, in public and private rooms', async () => {
    const mismatches: string[] = [];
    let cells = 0;
    for (const probe of PROBES) {
      const roomOp = isRoomOperation(probe.op);
      const privacies: Privacy[] = roomOp ? probe.privacies ?? ['public', 'private'] : ['public'];
      const actors = roomOp ? WHO : WHO.filter((w) => !['room_owner', 'member', 'creator'].includes(w));
      for (const privacy of privacies) {
        for (const who of actors) {
          if (probe.onThemselves && !USERS.includes(who)) continue;
          const room = probe.fresh ? await makeRoom(privacy) : rooms[privacy];
          const want = expected(probe, who, privacy);
          const got = await send(probe, who, room);
          cells++;
          if (got !== want) mismatches.push(`${probe.op}${probe.onThemselves ? ' (themselves)' : ''} [${privacy}] as ${who}: ${got}, the model says ${want}`);
        }
      }
    }
    for (const [method, params] of Object.entries(V1_PROBES)) {
      for (const who of ['v1_admin', 'v1_notification', 'group_admin'] as const) {
        const token = who === 'group_admin' ? users.group_admin.token : tokens.get(who)!;
        const res = await v1(stack.baseUrl, V1_GETS.has(method) ? 'GET' : 'POST', method, { auth_token: token, ...(await params(rooms.private)) });
        const probe = { op: `v1 ${method}`, success: 200 } as Probe;
        const want = expected(probe, who, 'private');
        cells++;
        if (res.status !== want) mismatches.push(`v1 ${method} as ${who}: ${res.status}, the model says ${want}`);
      }
    }
    process.stdout.write(`access matrix: ${cells} cells, ${mismatches.length} not as the model says\n`);
    expect(mismatches).toEqual([]);
  }, 600_000);
});
