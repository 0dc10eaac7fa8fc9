/**
 * Chat for people (issue 36, §1) across the built system, as `npm start` runs it: read state
 * kept per user on the server, unread counts and mentions in GET /v2/user/{user}/chats, and a
 * person's live stream (GET /v2/user/{user}/events) that carries their rooms and their
 * private messages, gains a room they are made a member of, loses a private room the moment
 * they are removed from it, and ends when their token is revoked.
 */
import { Client } from 'pg';
import { generateApiToken, hashApiToken } from '@app/common';
import { eventually } from '../support/harness';
import { Answer, v2Call } from '../support/http';
import { cli, startTestSystem, TestSystem } from '../support/processes';
import { LiveClient } from './support-live';

const SCOPES = ['admin_group', 'admin_room', 'manage_rooms', 'send_message', 'send_notification', 'view_group', 'view_messages', 'view_room'];

describe('chats, read markers and a person\'s live stream across the services', () => {
  let stack: TestSystem;
  let db: Client;
  let boss: { id: number; token: string };
  let ann: { id: number; token: string };
  let bob: { id: number; token: string };
  let seq = 0;
  const streams: LiveClient[] = [];

  const v2 = (token: string, verb: string, path: string, body?: unknown): Promise<Answer> => v2Call(stack.baseUrl, token, verb, path, body);

  async function personalToken(userId: number): Promise<{ id: number; token: string }> {
    const token = generateApiToken();
    const made = await db.query(`INSERT INTO api_tokens (token_hash, kind, label, user_id, scopes) VALUES ($1, 'personal', 'chats test', $2, $3) RETURNING id`,
      [hashApiToken(token), userId, SCOPES]);
    return { id: made.rows[0].id, token };
  }

  async function user(name: string, mention: string) {
    const made = await v2(boss.token, 'POST', '/user', { name, mention_name: mention, email: `${mention}-${++seq}@example.com` });
    expect(made.status).toBe(201);
    const t = await personalToken(made.body.id);
    return { id: made.body.id as number, token: t.token };
  }

  async function room(name: string, privacy: 'public' | 'private'): Promise<number> {
    const made = await v2(boss.token, 'POST', '/room', { name, privacy });
    expect(made.status).toBe(201);
    return made.body.id;
  }

  /** Sends a room message and answers its id (the newest of the room's history). */
  async function say(who: { token: string }, roomId: number, message: string): Promise<string> {
    expect((await v2(who.token, 'POST', `/room/${roomId}/message`, { message })).status).toBe(201);
    const latest = await v2(who.token, 'GET', `/room/${roomId}/history/latest?max-results=1`);
    expect(latest.body.items[0].message).toBe(message);
    return latest.body.items[0].id;
  }

  const chatOf = async (who: { id: number; token: string }, type: 'room' | 'user', id: number) => {
    const chats = await v2(who.token, 'GET', `/user/${who.id}/chats`);
    expect(chats.status).toBe(200);
    return chats.body.items.find((c: { type: string; id: number }) => c.type === type && c.id === id);
  };

  const stream = async (who: { id: number; token: string }) => {
    const c = await LiveClient.open(stack.baseUrl, `/v2/user/${who.id}/events`, { authorization: `Bearer ${who.token}` });
    streams.push(c);
    expect(c.status).toBe(200);
    return c;
  };
  /** Waits for an event of the stream that matches (or fails naming what came). */
  const arrival = (c: LiveClient, event: string, where: (data: any) => boolean) => eventually(() => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const found = c.events.find((e) => e.event === event && where(e.json));
    expect(found).toBeDefined();
    return found!;
  }, 15_000);

  beforeAll(async () => {
    stack = await startTestSystem('e2e_chats', { OUTBOX_POLL_MS: '200', LIVE_HEARTBEAT_SECONDS: '1', FLOOD_CONTROL_MAX: '10000' });
    db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    const v1Token = cli(['token', 'create', '--type', 'admin'], stack.env).stdout.trim();
    const email = `chats-boss-${Date.now()}@example.com`;
    const res = await fetch(`${stack.baseUrl}/v1/users/create`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ auth_token: v1Token, name: 'Chat Boss', email, is_group_admin: '1' }),
    });
    expect(res.status).toBe(200);
    const bossId = ((await res.json()) as { user: { user_id: number } }).user.user_id;
    boss = { id: bossId, token: (await personalToken(bossId)).token };
    ann = await user('Ann Lee', 'ann');
    bob = await user('Bob Roe', 'bob');
  }, 90_000);

  afterAll(async () => {
    for (const c of streams) c.close();
    await db?.end().catch(() => undefined);
    await stack?.stop();
  }, 30_000);

  it('counts what another person says, marks a mention, and PUT read brings it to 0', async () => {
    const ops = await room('Ops', 'public');
    const opened = await say(bob, ops, 'morning');
    expect((await v2(ann.token, 'PUT', `/room/${ops}/read`, { message_id: opened })).status).toBe(204);
    expect(await chatOf(ann, 'room', ops)).toEqual({
      type: 'room', id: ops, name: 'Ops', privacy: 'public', unread: 0, mentioned: false,
      last_message: { id: opened, date: expect.any(String) }, links: { self: expect.stringMatching(new RegExp(`/v2/room/${ops}$`)) },
    });

    const mention = await say(bob, ops, 'can you look, @ann?');
    expect(await chatOf(ann, 'room', ops)).toMatchObject({ unread: 1, mentioned: true, last_message: { id: mention } });
    expect((await v2(ann.token, 'PUT', `/room/${ops}/read`, { message_id: mention })).status).toBe(204);
    expect(await chatOf(ann, 'room', ops)).toMatchObject({ unread: 0, mentioned: false });

    // A message of another room, or none: 400 naming message_id. Someone else's chats: 403, a group admin's ask too.
    const other = await room('Elsewhere', 'public');
    const elsewhere = await say(bob, other, 'not in Ops');
    const bad = await v2(ann.token, 'PUT', `/room/${ops}/read`, { message_id: elsewhere });
    expect(bad).toEqual({ status: 400, body: { error: expect.objectContaining({ code: 400, message: expect.stringContaining('message_id') }) } });
    expect((await v2(ann.token, 'PUT', `/room/${ops}/read`, { message_id: 'nope' })).body.error.message).toContain('message_id');
    expect((await v2(boss.token, 'GET', `/user/${ann.id}/chats`)).status).toBe(403);
  });

  it('sends a private message live to its recipient\'s stream, and a room they are made a member of joins it', async () => {
    const mine = await stream(ann);
    expect((await v2(bob.token, 'POST', `/user/${ann.id}/message`, { message: 'psst @ann' })).status).toBe(204);
    const got = await arrival(mine, 'private_message', (d) => d.message.message === 'psst @ann');
    expect(got.id).toBeUndefined();
    expect(got.json).toEqual({
      message: expect.objectContaining({ id: expect.any(String), message: 'psst @ann', type: 'message', from: expect.objectContaining({ id: bob.id, mention_name: 'bob' }) }),
      from: { id: bob.id, name: 'Bob Roe', mention_name: 'bob' },
      to: { id: ann.id, name: 'Ann Lee', mention_name: 'ann' },
    });
    expect(await chatOf(ann, 'user', bob.id)).toMatchObject({ type: 'user', name: 'Bob Roe', mention_name: 'bob', unread: 1, mentioned: true });
    expect((await v2(ann.token, 'PUT', `/user/${bob.id}/read`, { message_id: got.json.message.id })).status).toBe(204);
    expect(await chatOf(ann, 'user', bob.id)).toMatchObject({ unread: 0, mentioned: false });

    const later = await room('Later', 'private');
    expect((await v2(boss.token, 'PUT', `/room/${later}/member/${ann.id}`)).status).toBe(204);
    await say(boss, later, 'welcome to Later');
    const joined = await arrival(mine, 'room_message', (d) => d.message?.message === 'welcome to Later');
    expect(joined.json.room).toMatchObject({ id: later, name: 'Later' });
  });

  it('carries a room the person creates, and one given to them to own, without a reconnect', async () => {
    const mine = await stream(ann);
    const made = await v2(ann.token, 'POST', '/room', { name: 'Ann Made', privacy: 'public' });
    expect(made.status).toBe(201);
    await say(bob, made.body.id, 'hello in the room Ann made');
    await arrival(mine, 'room_message', (d) => d.message?.message === 'hello in the room Ann made');

    const handed = await room('Handed Over', 'private');
    expect((await v2(boss.token, 'PUT', `/room/${handed}`, { name: 'Handed Over', privacy: 'private', is_archived: false, owner: { id: ann.id } })).status).toBe(204);
    await say(boss, handed, 'yours now');
    const got = await arrival(mine, 'room_message', (d) => d.message?.message === 'yours now');
    expect(got.json.room).toMatchObject({ id: handed, name: 'Handed Over' });
    expect(await chatOf(ann, 'room', handed)).toMatchObject({ unread: 1 });
  });

  it('stops carrying a private room the moment its membership is lost', async () => {
    const hush = await room('Hush', 'private');
    expect((await v2(boss.token, 'PUT', `/room/${hush}/member/${ann.id}`)).status).toBe(204);
    const mine = await stream(ann);
    await say(boss, hush, 'while a member');
    await arrival(mine, 'room_message', (d) => d.message?.message === 'while a member');

    expect((await v2(boss.token, 'DELETE', `/room/${hush}/member/${ann.id}`)).status).toBe(204);
    await say(boss, hush, 'after the removal');
    // A private message sent after it is the control: once it has come, the room's would have too.
    expect((await v2(bob.token, 'POST', `/user/${ann.id}/message`, { message: 'control' })).status).toBe(204);
    await arrival(mine, 'private_message', (d) => d.message.message === 'control');
    expect(mine.events.filter((e) => e.event === 'room_message' && e.json.message?.message === 'after the removal')).toEqual([]);
    expect(await chatOf(ann, 'room', hush)).toBeUndefined();
  });

  it('ends a person\'s stream when the token it was opened with is revoked', async () => {
    const second = await personalToken(boss.id);
    const theirs = await stream({ id: boss.id, token: second.token });
    expect((await v2(boss.token, 'DELETE', `/token/${second.id}`)).status).toBe(204);
    await theirs.ended;
    expect(theirs.events[theirs.events.length - 1]).toMatchObject({ event: 'error', json: { error: { code: 'token_revoked' } } });
  });
});
