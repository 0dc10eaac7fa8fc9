/**
 * The v2 API as an integration written for the original service uses it: the three built
 * services as processes (what `npm start` runs), a personal token from the real CLI, and a
 * v2 client library from the npm registry (hipchatter) given our base URL, unchanged. Then
 * every one of the ten room events those calls caused is read off the exchange and compared
 * with the specification's tables, field by field.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventCapture } from '../support/harness';
import { cli, startTestSystem, TestSystem } from '../support/processes';
import { WEBHOOK_EVENT_SOURCES } from '@app/contracts';
import { EVENT_ITEMS, specProblems } from '../support/spec-shapes';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Hipchatter = require('hipchatter');

/** hipchatter's callback API as promises: `call('create_room', {...})`. */
function client(baseUrl: string, token: string) {
  const hc = new Hipchatter(token, `${baseUrl}/v2/`);
  return <T = any>(method: string, ...args: unknown[]) => new Promise<T>((resolve, reject) => {
    hc[method](...args, (err: Error | null, body: T) => (err ? reject(err) : resolve(body)));
  });
}

describe('a v2 client library from npm (hipchatter) against the whole system', () => {
  let stack: TestSystem;
  let env: Record<string, string>;
  let baseUrl: string;
  let files: string;
  let capture: EventCapture;
  let hc: ReturnType<typeof client>;
  let adminEmail: string;
  let roomId: number;
  let userEmail: string;
  let userId: number;

  beforeAll(async () => {
    files = mkdtempSync(join(tmpdir(), 'e2e-files-'));
    stack = await startTestSystem('e2e_v2', { FILE_STORAGE_DIR: files });
    ({ env, baseUrl } = stack);
    capture = await EventCapture.start(env.AMQP_URL, env.BROKER_NAMESPACE, 'room.#');
    // The group admin, made through v1 with a v1 admin token, then their personal v2 token from the CLI.
    const v1 = cli(['token', 'create', '--type', 'admin'], env).stdout.trim();
    adminEmail = `admin-${Date.now()}@example.com`;
    const res = await fetch(`${baseUrl}/v1/users/create`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ auth_token: v1, name: 'Group Admin', email: adminEmail, is_group_admin: '1' }),
    });
    expect(res.status).toBe(200);
    const made = cli(['token', 'create', '--type', 'personal', '--user', adminEmail, '--scopes',
      'admin_group,admin_room,manage_rooms,send_message,send_notification,view_group,view_messages,view_room'], env);
    expect(made.status).toBe(0);
    expect(made.stdout).toMatch(/^[A-Za-z0-9]{40}\n$/);
    hc = client(baseUrl, made.stdout.trim());
  }, 60_000);

  afterAll(async () => {
    await capture?.stop();
    await stack?.stop();
    rmSync(files, { recursive: true, force: true });
  }, 30_000);

  it('reads the capabilities document (called with an empty token)', async () => {
    const caps = await hc('capabilities');
    expect(caps.links.api).toBe(`${baseUrl}/v2`);
    expect(caps.capabilities.oauth2Provider.tokenUrl).toBe(`${baseUrl}/v2/oauth/token`);
  });

  it('creates, lists, reads, archives, unarchives and re-topics a room', async () => {
    const created = await hc('create_room', { name: 'Client Room', privacy: 'public', topic: 'First' });
    roomId = created.id;
    expect(created.links.self).toBe(`${baseUrl}/v2/room/${roomId}`);
    expect((await hc<any[]>('rooms')).map((r) => r.name)).toContain('Client Room');
    const room = await hc('get_room', 'Client Room');
    expect(room).toMatchObject({ id: roomId, name: 'Client Room', topic: 'First', privacy: 'public', is_archived: false });
    await hc('update_room', { name: 'Client Room', privacy: 'public', is_archived: true, topic: 'First' });
    expect((await hc('get_room', roomId)).is_archived).toBe(true);
    await hc('update_room', { name: 'Client Room', privacy: 'public', is_archived: false, topic: 'First' });
    await hc('set_topic', 'Client Room', 'Second');
    expect((await hc('get_room', roomId)).topic).toBe('Second');
    await expect(hc('get_room', 'No Such Room')).rejects.toThrow(/Room No Such Room not found/);
    expect(await hc('room_exists', 'No Such Room')).toBe(false);
  });

  it('creates, lists, reads, replaces and messages users', async () => {
    userEmail = `ada-${Date.now()}@example.com`;
    const created = await hc('create_user', { name: 'Ada Lovelace', email: userEmail, mention_name: 'ada', password: '' });
    userId = created.id;
    expect((await hc<any[]>('users')).map((u) => u.id)).toContain(userId);
    const user = await hc('view_user', userEmail);
    expect(user).toMatchObject({ id: userId, name: 'Ada Lovelace', mention_name: 'ada', email: userEmail });
    await hc('update_user', { email: userEmail, name: 'Ada King', mention_name: 'ada', title: 'Countess' });
    expect(await hc('view_user', userId)).toMatchObject({ name: 'Ada King', title: 'Countess' });
    await hc('send_private_message', userEmail, { message: 'psst' });
  });

  it('sends messages and notifications and reads them back in the history', async () => {
    await hc('send_room_message', roomId, 'hello @ada, see https://example.com/pic.png');
    await hc('notify', 'Client Room', {
      message: 'Build <b>42</b> passed', color: 'green', notify: true, message_format: 'html', from: 'CI',
      card: { style: 'link', id: 'c1', title: 'Build 42', url: 'https://ci.example.com/42', description: 'green', thumbnail: { url: 'https://ci.example.com/t.png', url2x: 'https://ci.example.com/t2.png' } },
    });
    const roomToken = cli(['token', 'create', '--type', 'room', '--room', String(roomId)], env).stdout.trim();
    // hipchatter's convenience form: the room token travels as auth_token (and as `token` in the body).
    await hc('notify', 'Client Room', 'deployed', roomToken);
    const history = await hc('history', roomId);
    expect(history.items.map((m: any) => m.message)).toEqual(expect.arrayContaining([
      'hello @ada, see https://example.com/pic.png', 'Build <b>42</b> passed', 'deployed',
    ]));
  });

  it('reads emoticons', async () => {
    const all = await hc<any[]>('emoticons');
    expect(all.length).toBeGreaterThanOrEqual(50);
    const one = await hc('get_emoticon', 'allthethings');
    expect(one).toMatchObject({ id: expect.any(Number), shortcut: 'allthethings' });
    const image = await fetch(one.url);
    expect([image.status, image.headers.get('content-type')]).toEqual([200, expect.stringMatching(/^image\//)]);
  });

  it('manages the members of a private room', async () => {
    await hc('create_room', { name: 'Secret Room', privacy: 'private' });
    await hc('add_member', { room_name: 'Secret Room', user_email: userEmail });
    await hc('add_member', { room_name: 'Secret Room', user_email: userEmail });
    await hc('invite_member', { room_name: 'Secret Room', user_email: userEmail }, { reason: 'welcome' });
    await hc('delete_member', { room_name: 'Secret Room', user_email: userEmail });
  });

  it('enters and leaves a room, and shares a file (as a client does without a library helper)', async () => {
    const personal = cli(['token', 'create', '--type', 'personal', '--user', userEmail], env).stdout.trim();
    const auth = { authorization: `Bearer ${personal}` };
    expect((await fetch(`${baseUrl}/v2/room/${roomId}/participant/${userId}`, { method: 'PUT', headers: auth })).status).toBe(204);
    expect((await fetch(`${baseUrl}/v2/room/${roomId}/participant/${userId}`, { method: 'DELETE', headers: auth })).status).toBe(204);
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('hello file')], { type: 'text/plain' }), 'notes.txt');
    form.append('metadata', JSON.stringify({ message: 'the notes' }));
    expect((await fetch(`${baseUrl}/v2/room/${roomId}/share/file`, { method: 'POST', headers: auth, body: form })).status).toBe(204);
  });

  it('deletes users and rooms', async () => {
    await hc('delete_user', userEmail);
    await expect(hc('view_user', userEmail)).rejects.toThrow(/not found/);
    await hc('delete_room', 'Client Room');
    await hc('delete_room', 'Secret Room');
  });

  it('caused all ten room events, each with the item the specification describes', async () => {
    for (const [event, source] of Object.entries(WEBHOOK_EVENT_SOURCES)) {
      await capture.waitFor(source.routingKey, () => true, 10_000);
      for (const envelope of capture.of(source.routingKey)) {
        expect({ event, problems: specProblems(EVENT_ITEMS[event], source.item(envelope.payload)) }).toEqual({ event, problems: [] });
      }
    }
  });
});
