import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import sharp from 'sharp';
import { eventually } from '../../../test/support/common';
import { EventCapture, readResponse, Stack, startStack, v1, V1Response } from '../../../test/support/harness';
import { CLI, ROOT } from '../../../test/support/processes';
import { FileLinks } from '../src/v2/files/file-links';
import { v2, v2Session, V2Session } from './v2-helpers';

/** Where the rooms service points its links (its PUBLIC_BASE_URL default), and the gateway its file URLs. */
const BASE = 'http://127.0.0.1:8080';
const BOUNDARY = 'xYzZY-boundary-42';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** The query of a signed link (room_file_upload's URLs): until when, since when, and an HMAC-SHA256 in base64url. */
const SIGNED = '\\?expires=\\d+&issued=\\d+&signature=[A-Za-z0-9_-]{43}';
/** A link without its signature: what history shows, and what a public room's file is fetched by. */
const unsigned = (url: string) => url.split('?')[0];
const unsignedFile = (f: { url: string; thumb_url?: string }) => ({ ...f, url: unsigned(f.url), ...(f.thumb_url ? { thumb_url: unsigned(f.thumb_url) } : {}) });

interface Part {
  headers: string[];
  body: Buffer | string;
}

/** A multipart body as clients put it on the wire (CRLF line ends). */
function multipart(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\n${part.headers.map((h) => `${h}\r\n`).join('')}\r\n`));
    chunks.push(Buffer.isBuffer(part.body) ? part.body : Buffer.from(part.body));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const LINK_SECRET = 'test-file-link-secret-0123456789abcdef';
const FORM = `multipart/form-data; boundary=${BOUNDARY}`;
const RELATED = `multipart/related; boundary="${BOUNDARY}"`;

/** Browsers and curl -F. */
const form = (file: { name: string; type?: string; data: Buffer }, message?: string): Buffer => multipart([
  ...(message !== undefined ? [{ headers: ['Content-Disposition: form-data; name="message"'], body: message }] : []),
  {
    headers: [`Content-Disposition: form-data; name="file"; filename="${file.name}"`, ...(file.type ? [`Content-Type: ${file.type}`] : [])],
    body: file.data,
  },
]);

/** HipChat's own clients: a JSON metadata part and the file. */
const related = (file: { name: string; type: string; data: Buffer }, message?: string): Buffer => multipart([
  ...(message !== undefined ? [{
    headers: ['Content-Type: application/json; charset=UTF-8', 'Content-Disposition: attachment; name="metadata"'],
    body: JSON.stringify({ message }),
  }] : []),
  { headers: [`Content-Type: ${file.type}`, `Content-Disposition: attachment; name="file"; filename="${file.name}"`], body: file.data },
]);

const errorOf = (res: V1Response) => ({ status: res.status, ...res.json.error });

describe('v2 share file and file serving (real services)', () => {
  let stack: Stack;
  let small: string;
  let s: V2Session;
  let capture: EventCapture;
  let db: Client;
  let dir: string;
  let root: string;
  let roomId: number;
  let admin: { id: number; name: string; mention_name: string };

  const share = async (room: string | number, body: Buffer | string, contentType: string | undefined, opts: { token?: string; base?: string } = {}) => {
    const headers: Record<string, string> = {};
    if (contentType !== undefined) headers['content-type'] = contentType;
    const token = opts.token === undefined ? s.token : opts.token;
    if (token) headers.authorization = `Bearer ${token}`;
    return readResponse(await fetch(`${opts.base ?? stack.baseUrl}/v2/room/${encodeURIComponent(String(room))}/share/file`, { method: 'POST', headers, body }));
  };
  /** `url` names the configured public base; the test gateway listens elsewhere. */
  const fetchUrl = (url: string, base = stack.baseUrl, init?: RequestInit) => fetch(`${base}${new URL(url).pathname}${new URL(url).search}`, init);
  const uploadEvent = (name: string) => capture.waitFor('room.file-uploaded.v2', (e) => e.payload.file.name === name);
  const storedFiles = () => readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  const createRoom = async (name: string, extra: Record<string, string | number> = {}) => {
    const res = await v1(stack.baseUrl, 'POST', 'rooms/create', { auth_token: s.v1Admin, name, owner_user_id: s.adminId, ...extra });
    expect(res.status).toBe(200);
    return res.json.room.room_id as number;
  };
  /** The built CLI (`npm run build` first), run as an operator would, on this stack's database and file directory. */
  const restoreNames = () => new Promise<{ status: number; stdout: string; stderr: string }>((resolve, reject) => {
    const env = { ...process.env, DATABASE_URL: stack.databaseUrl, FILE_STORAGE_DIR: root };
    execFile(process.execPath, [CLI, 'file', 'restore-names'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') reject(err);
      else resolve({ status: err ? (err.code as number) : 0, stdout, stderr });
    });
  });
  const messagesOf = async (room: number) =>
    (await db.query('SELECT type, user_id, body, message_format, file FROM messages WHERE room_id = $1 ORDER BY created_at, id', [room])).rows;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'v2-files-'));
    root = join(dir, 'files');
    // A file beside the storage root: no URL may reach it.
    writeFileSync(join(dir, 'secret.txt'), 'TOP-SECRET');
    // Deleted rooms' files are removed every 200 ms here (a minute by default); the link key is
    // known, to craft links, and the replicas share it (they would share the generated one too).
    const files = { FILE_STORAGE_DIR: root, FILE_LINK_SECRET: LINK_SECRET, FILE_CLEANUP_INTERVAL: '200ms' };
    stack = await startStack({ gateway: { FILE_MAX_BYTES: String(4 * 1024 * 1024), ...files }, rooms: true });
    // A replica sharing the directory, with a tiny limit.
    small = await stack.addGateway({ FILE_MAX_BYTES: '1000', ...files });
    s = await v2Session(stack);
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    roomId = await createRoom('Files Room');
    const user = (await v1(stack.baseUrl, 'GET', 'users/show', { auth_token: s.v1Admin, user_id: s.adminId })).json.user;
    admin = { id: s.adminId, name: user.name, mention_name: user.mention_name };
  });
  afterAll(async () => {
    await capture?.stop();
    await db?.end();
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('POST /v2/room/{room}/share/file', () => {
    it('takes a form-data upload with a message: 204, the file served back byte for byte, room_file_upload field by field', async () => {
      // Bytes that look like multipart framing (all but the boundary itself) must survive untouched.
      const data = Buffer.concat([randomBytes(300), Buffer.from(`\r\n--${BOUNDARY.slice(0, -1)}\r\n\r\n--\r\n`), randomBytes(300)]);
      const res = await share(roomId, form({ name: 'Notes Q3.txt', type: 'text/plain', data }, 'Here are the notes'), FORM);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(res.headers.get('content-type')).toBeNull();
      expect(res.headers.get('x-floodcontrol-limit')).toBe('30');
      expect(res.headers.get('x-ratelimit-limit')).toBe('500');

      const event = await uploadEvent('Notes Q3.txt');
      const { file, room, sender } = event.payload;
      expect(Object.keys(event.payload).sort()).toEqual(['file', 'room', 'sender']);
      // File object: name, size (integer bytes), url; no thumb_url for a text file.
      expect(file).toEqual({ name: 'Notes Q3.txt', size: data.length, url: expect.stringMatching(new RegExp(`^${BASE}/files/[0-9a-f]{2}/${UUID}/Notes_Q3\\.txt${SIGNED}$`)) });
      expect(Number.isInteger(file.size)).toBe(true);
      // Room object.
      expect(room).toEqual({
        id: roomId,
        is_archived: false,
        links: { self: `${BASE}/v2/room/${roomId}`, participants: `${BASE}/v2/room/${roomId}/participant`, webhooks: `${BASE}/v2/room/${roomId}/webhook` },
        name: 'Files Room',
        privacy: 'public',
        version: expect.stringMatching(/^\S+$/),
      });
      // User object: the uploader, i.e. the token's user.
      expect(sender).toEqual({
        id: admin.id, links: { self: `${BASE}/v2/user/${admin.id}` }, mention_name: admin.mention_name, name: admin.name,
        version: expect.stringMatching(/^\S+$/),
      });

      const got = await fetchUrl(file.url);
      expect(got.status).toBe(200);
      expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
      expect(got.headers.get('content-type')).toBe('text/plain');
      expect(got.headers.get('content-disposition')).toBe(`attachment; filename="Notes Q3.txt"; filename*=UTF-8''Notes%20Q3.txt`);
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      // A public room's file: shared caches may keep it a little, never for good (the room may become private).
      expect(got.headers.get('cache-control')).toBe('public, max-age=300');
      // The link without its signature is the public room's unguessable link: no credentials needed.
      expect((await fetchUrl(unsigned(file.url))).status).toBe(200);
      // Every replica serves it: they share the directory.
      expect((await fetchUrl(file.url, small)).status).toBe(200);

      // The message row the history shows.
      const rows = await messagesOf(roomId);
      expect(rows.at(-1)).toEqual({
        type: 'message', user_id: admin.id, body: 'Here are the notes', message_format: 'text',
        file: { name: 'Notes Q3.txt', size: data.length, url: unsigned(file.url) },
      });
    });

    it('takes a multipart/related PNG with metadata: a thumb_url whose image fits 200 px, served inline', async () => {
      const png = await sharp({ create: { width: 800, height: 400, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
      const res = await share(roomId, related({ name: 'Screen Shot.png', type: 'image/png', data: png }, 'Check out this cool file'), RELATED);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');

      const { file } = (await uploadEvent('Screen Shot.png')).payload;
      expect(file).toEqual({
        name: 'Screen Shot.png',
        size: png.length,
        url: expect.stringMatching(new RegExp(`^${BASE}/files/[0-9a-f]{2}/${UUID}/Screen_Shot\\.png${SIGNED}$`)),
        thumb_url: expect.stringMatching(new RegExp(`^${BASE}/files/[0-9a-f]{2}/${UUID}-thumb/Screen_Shot\\.png${SIGNED}$`)),
      });

      const got = await fetchUrl(file.url);
      expect(Buffer.from(await got.arrayBuffer()).equals(png)).toBe(true);
      expect(got.headers.get('content-type')).toBe('image/png');
      expect(got.headers.get('content-disposition')).toBe(`inline; filename="Screen Shot.png"; filename*=UTF-8''Screen%20Shot.png`);
      expect(got.headers.get('content-length')).toBe(String(png.length));
      const head = await fetch(`${stack.baseUrl}${new URL(file.url).pathname}`, { method: 'HEAD' });
      expect([head.status, head.headers.get('content-type')]).toEqual([200, 'image/png']);

      const thumb = await fetchUrl(file.thumb_url);
      expect(thumb.status).toBe(200);
      expect(thumb.headers.get('content-type')).toBe('image/png');
      const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
      expect(meta.format).toBe('png');
      expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(200);
      expect([meta.width, meta.height]).toEqual([200, 100]);

      const rows = await messagesOf(roomId);
      expect(rows.at(-1)).toMatchObject({ type: 'message', user_id: admin.id, body: 'Check out this cool file', file: unsignedFile(file) });
    });

    it('takes uploads without a message (form-data and related), the message body then empty', async () => {
      const jpeg = await sharp({ create: { width: 300, height: 900, channels: 3, background: '#333' } }).jpeg().toBuffer();
      expect((await share(roomId, form({ name: 'tall.jpg', data: jpeg }), FORM)).status).toBe(204);
      // The declared type is not trusted either way: sniffed as JPEG, served as JPEG.
      const tall = (await uploadEvent('tall.jpg')).payload.file;
      expect(tall.thumb_url).toMatch(/-thumb\/tall\.jpg\?expires=/);
      expect((await fetchUrl(tall.url)).headers.get('content-type')).toBe('image/jpeg');
      expect((await messagesOf(roomId)).at(-1)).toMatchObject({ body: '', file: { name: 'tall.jpg', size: jpeg.length } });

      expect((await share(String('Files Room'), related({ name: 'data.bin', type: 'application/octet-stream', data: Buffer.from([0, 1, 2]) }), RELATED)).status).toBe(204);
      expect((await uploadEvent('data.bin')).payload.file).toEqual({ name: 'data.bin', size: 3, url: expect.stringMatching(/\/data\.bin\?expires=/) });
      expect((await messagesOf(roomId)).at(-1)).toMatchObject({ body: '', file: { name: 'data.bin', size: 3 } });
    });

    it('reads bodies larger than 1 MiB (the server has no body limit of its own in the way)', async () => {
      const data = randomBytes(1536 * 1024);
      expect((await share(roomId, form({ name: 'big.bin', type: 'application/octet-stream', data }), FORM)).status).toBe(204);
      const { file } = (await uploadEvent('big.bin')).payload;
      expect(file.size).toBe(data.length);
      expect(Buffer.from(await (await fetchUrl(file.url)).arrayBuffer()).equals(data)).toBe(true);
    });

    it('answers 413 in the v2 error body past FILE_MAX_BYTES, storing nothing', async () => {
      const before = storedFiles();
      const res = await share(roomId, form({ name: 'big.bin', data: Buffer.alloc(2000, 1) }), FORM, { base: small });
      expect(errorOf(res)).toMatchObject({ status: 413, code: 413, type: 'Request Entity Too Large', message: expect.stringMatching(/1000/) });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(storedFiles()).toBe(before);
      // Under the limit, the same replica takes it.
      expect((await share(roomId, form({ name: 'tiny.txt', data: Buffer.from('tiny') }), FORM, { base: small })).status).toBe(204);
    });

    it('names the part that is not JSON as it should be: metadata, or a JSON message part', async () => {
      const file = [{ headers: ['Content-Type: text/plain', 'Content-Disposition: attachment; name="file"; filename="a.txt"'], body: 'a' }];
      const meta = (body: string) => multipart([{ headers: ['Content-Type: application/json', 'Content-Disposition: attachment; name="metadata"'], body }, ...file]);
      expect(errorOf(await share(roomId, meta('{"message": '), RELATED))).toMatchObject({ status: 400, message: expect.stringMatching(/^metadata: the metadata part is not valid JSON/) });
      expect(errorOf(await share(roomId, meta('["hi"]'), RELATED))).toMatchObject({ status: 400, message: expect.stringMatching(/^metadata: the metadata part must be a JSON object/) });
      const jsonMessage = multipart([{ headers: ['Content-Type: application/json', 'Content-Disposition: form-data; name="message"'], body: '{' }, ...file]);
      expect(errorOf(await share(roomId, jsonMessage, FORM))).toMatchObject({ status: 400, message: expect.stringMatching(/^message: the message part is not valid JSON/) });
      // The message inside the metadata is still named message.
      expect(errorOf(await share(roomId, meta('{"message": 5}'), RELATED))).toMatchObject({ status: 400, message: 'message: must be a string' });
    });

    it('answers 400 without a file part, and 415 for a body that is not multipart', async () => {
      const noFile = await share(roomId, multipart([{ headers: ['Content-Disposition: form-data; name="message"'], body: 'hi' }]), FORM);
      expect(errorOf(noFile)).toMatchObject({ status: 400, type: 'Bad Request', message: 'file: is required' });
      const json = await share(roomId, JSON.stringify({ message: 'hi' }), 'application/json');
      expect(errorOf(json)).toMatchObject({ status: 415, type: 'Unsupported Media Type', message: expect.stringMatching(/multipart\/related or multipart\/form-data/) });
      expect(errorOf(await share(roomId, 'just text', 'text/plain'))).toMatchObject({ status: 415 });
      expect(errorOf(await share(roomId, form({ name: 'a.txt', data: Buffer.from('a') }), 'multipart/form-data'))).toMatchObject({ status: 400, message: expect.stringMatching(/boundary/) });
    });

    it('gives a refused share\'s flood count back: the room\'s budget stays as it was, and an accepted one lowers it', async () => {
      const room = await createRoom('Refused Shares');
      const roomToken = await stack.createToken('room', 'refused shares bot', { room: String(room) });
      await db.query(`UPDATE api_tokens SET scopes = '{send_notification,send_message}' WHERE kind = 'room'`);
      const refused = [
        [413, () => share(room, form({ name: 'big.bin', data: Buffer.alloc(2000, 1) }), FORM, { base: small })],
        [400, () => share(room, multipart([{ headers: ['Content-Disposition: form-data; name="message"'], body: 'hi' }]), FORM)],
        [415, () => share(room, 'just text', 'text/plain')],
        [403, () => share(room, form({ name: 'a.txt', data: Buffer.from('a') }), FORM, { token: roomToken })],
      ] as const;
      for (const [status, send] of refused) {
        const res = await send();
        expect(res.status).toBe(status);
        expect(res.headers.get('x-floodcontrol-remaining')).toBe('30');
      }
      const ok = await share(room, form({ name: 'a.txt', data: Buffer.from('a') }), FORM);
      expect(ok.status).toBe(204);
      expect(ok.headers.get('x-floodcontrol-remaining')).toBe('29');
    });

    it('answers 401 without a valid token, and 403 without send_message or without a user', async () => {
      const body = form({ name: 'a.txt', data: Buffer.from('a') });
      expect(errorOf(await share(roomId, body, FORM, { token: '' }))).toMatchObject({ status: 401, type: 'Unauthorized' });
      expect(errorOf(await share(roomId, body, FORM, { token: 'x'.repeat(40) }))).toMatchObject({ status: 401 });

      const viewer = await s.personalToken(s.adminId, ['view_group']);
      expect(errorOf(await share(roomId, body, FORM, { token: viewer }))).toMatchObject({ status: 403, type: 'Forbidden', message: expect.stringMatching(/send_message/) });

      // A room token given send_message still has no user to share as.
      const roomToken = await stack.createToken('room', 'room bot', { room: String(roomId) });
      await db.query(`UPDATE api_tokens SET scopes = '{send_notification,send_message}' WHERE kind = 'room'`);
      const before = storedFiles();
      expect(errorOf(await share(roomId, body, FORM, { token: roomToken }))).toMatchObject({ status: 403, message: expect.stringMatching(/personal token/) });
      expect(storedFiles()).toBe(before);
    });

    it('answers 404 for an unknown room and deletes what it stored', async () => {
      const before = storedFiles();
      const png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#0f0' } }).png().toBuffer();
      const res = await share(987654, form({ name: 'lost.png', type: 'image/png', data: png }), FORM);
      expect(errorOf(res)).toMatchObject({ status: 404, type: 'Not Found', message: 'Room 987654 not found' });
      expect(errorOf(await share('No Such Room', form({ name: 'lost.txt', data: Buffer.from('x') }), FORM))).toMatchObject({ status: 404, message: 'Room No Such Room not found' });
      // No orphan: neither the file nor its thumbnail stayed.
      expect(storedFiles()).toBe(before);
      expect(capture.of('room.file-uploaded.v2', (e) => e.payload.file.name.startsWith('lost.'))).toEqual([]);
    });

    it('answers 400 for an archived room, and lets only members share in a private room', async () => {
      const archived = await createRoom('Archived Files');
      await db.query('UPDATE rooms SET is_archived = true WHERE id = $1', [archived]);
      const before = storedFiles();
      expect(errorOf(await share(archived, form({ name: 'a.txt', data: Buffer.from('a') }), FORM))).toMatchObject({ status: 400, message: expect.stringMatching(/archived/) });
      expect(storedFiles()).toBe(before);

      const secret = await createRoom('Secret Files', { privacy: 'private' });
      const bob = await s.createUser('Bob Files');
      const bobToken = await s.personalToken(bob);
      const refused = await share(secret, form({ name: 'b.txt', data: Buffer.from('b') }), FORM, { token: bobToken });
      // As if it did not exist (room-access.ts, roomNotFound): the room's name is not told.
      expect(errorOf(refused)).toMatchObject({ status: 404, message: `Room ${secret} not found` });
      expect(storedFiles()).toBe(before);
      // The owner is a member.
      expect((await share(secret, form({ name: 'owner.txt', data: Buffer.from('o') }), FORM)).status).toBe(204);
      expect((await uploadEvent('owner.txt')).payload.room).toMatchObject({ id: secret, privacy: 'private', links: { members: `${BASE}/v2/room/${secret}/member` } });
    });
  });

  describe('GET /files/<key>', () => {
    const rawGet = (path: string) => new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(stack.baseUrl);
      // node:http sends the path as written: no client-side normalisation of "..".
      const req = request({ host: url.hostname, port: url.port, path, method: 'GET' }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });

    it('serves SVG and HTML uploads as attachments only, with nosniff', async () => {
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"/>');
      expect((await share(roomId, form({ name: 'evil.svg', type: 'image/svg+xml', data: svg }), FORM)).status).toBe(204);
      const svgFile = (await uploadEvent('evil.svg')).payload.file;
      expect(svgFile.thumb_url).toBeUndefined();
      const gotSvg = await fetchUrl(svgFile.url);
      expect(gotSvg.headers.get('content-disposition')).toBe(`attachment; filename="evil.svg"; filename*=UTF-8''evil.svg`);
      expect(gotSvg.headers.get('x-content-type-options')).toBe('nosniff');
      expect(gotSvg.headers.get('content-security-policy')).toMatch(/sandbox/);

      // Even claiming to be a PNG, HTML is not served inline.
      const html = Buffer.from('<html><script>alert(1)</script></html>');
      expect((await share(roomId, form({ name: 'page.html', type: 'image/png', data: html }), FORM)).status).toBe(204);
      const gotHtml = await fetchUrl((await uploadEvent('page.html')).payload.file.url);
      expect(gotHtml.headers.get('content-disposition')).toBe(`attachment; filename="page.html"; filename*=UTF-8''page.html`);
      expect(gotHtml.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('downloads a file under the Unicode name it was shared with: filename* in UTF-8, an ASCII filename beside it', async () => {
      // A browser's form: fetch's FormData sends the name as raw UTF-8.
      const body = new FormData();
      body.append('file', new Blob([Buffer.from('my cv')], { type: 'text/plain' }), 'résumé✓.txt');
      const res = await fetch(`${stack.baseUrl}/v2/room/${roomId}/share/file`, { method: 'POST', headers: { authorization: `Bearer ${s.token}` }, body });
      expect(res.status).toBe(204);
      const cv = (await uploadEvent('résumé✓.txt')).payload.file;
      // The URL keeps its ASCII key; only the download name changed.
      expect(cv.url).toMatch(/\/resume_\.txt\?expires=/);
      const gotCv = await fetchUrl(cv.url);
      expect(await gotCv.text()).toBe('my cv');
      expect(gotCv.headers.get('content-disposition')).toBe(`attachment; filename="resume_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%E2%9C%93.txt`);

      // HipChat's clients: an RFC 5987 name on the part. An image is inline, and so is its thumbnail, under the same name.
      const png = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#00f' } }).png().toBuffer();
      const cyrillic = multipart([{
        headers: ['Content-Type: image/png', `Content-Disposition: attachment; name="file"; filename="fallback.png"; filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82.png`],
        body: png,
      }]);
      expect((await share(roomId, cyrillic, RELATED)).status).toBe(204);
      const report = (await uploadEvent('Отчёт.png')).payload.file;
      const inline = `inline; filename="_____.png"; filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82.png`;
      expect((await fetchUrl(report.url)).headers.get('content-disposition')).toBe(inline);
      expect((await fetchUrl(report.thumb_url)).headers.get('content-disposition')).toBe(inline);

      // Quotes and a semicolon in the name neither end the header's quoted string nor add a parameter.
      const tricky = multipart([{
        headers: ['Content-Type: text/plain', `Content-Disposition: attachment; name="file"; filename*=UTF-8''say%20%22hi%22%3B%20x%3D1%E6%96%87.txt`],
        body: 'hi',
      }]);
      expect((await share(roomId, tricky, RELATED)).status).toBe(204);
      const said = (await uploadEvent('say "hi"; x=1文.txt')).payload.file;
      expect((await fetchUrl(said.url)).headers.get('content-disposition'))
        .toBe(`attachment; filename="say _hi__ x=1_.txt"; filename*=UTF-8''say%20%22hi%22%3B%20x%3D1%E6%96%87.txt`);
    });

    it('downloads a file stored before names were kept under the name it was shared with, once `cli file restore-names` has run', async () => {
      const png = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#0f0' } }).png().toBuffer();
      const body = new FormData();
      body.append('file', new Blob([Buffer.from('old cv')], { type: 'text/plain' }), 'vieux résumé✓.txt');
      expect((await fetch(`${stack.baseUrl}/v2/room/${roomId}/share/file`, { method: 'POST', headers: { authorization: `Bearer ${s.token}` }, body })).status).toBe(204);
      const cv = (await uploadEvent('vieux résumé✓.txt')).payload.file;
      expect((await share(roomId, related({ name: 'Старый.png', type: 'image/png', data: png }), RELATED)).status).toBe(204);
      const photo = (await uploadEvent('Старый.png')).payload.file;
      // Stored as the gateway stored files before ad9d7a3: the sidecar holds the content type alone.
      for (const url of [cv.url, photo.url, photo.thumb_url]) {
        const sidecar = join(root, `${new URL(url).pathname.slice('/files/'.length)}.meta.json`);
        writeFileSync(sidecar, JSON.stringify({ contentType: JSON.parse(readFileSync(sidecar, 'utf8')).contentType }));
      }
      const disposition = async (url: string, base?: string) => (await fetchUrl(url, base)).headers.get('content-disposition');
      expect(await disposition(cv.url)).toBe(`attachment; filename="vieux_resume_.txt"; filename*=UTF-8''vieux_resume_.txt`);

      const run = await restoreNames();
      expect(run).toMatchObject({ status: 0, stderr: '' });
      // Its file and thumbnail, and this one; every other file of these tests was shared with its name.
      expect(run.stdout).toMatch(/^named 3 file\(s\); \d+ had a name already, 0 not in FILE_STORAGE_DIR; 0 message\(s\) skipped/);

      const gotCv = await fetchUrl(cv.url);
      expect(await gotCv.text()).toBe('old cv');
      expect(gotCv.headers.get('content-disposition')).toBe(`attachment; filename="vieux resume_.txt"; filename*=UTF-8''vieux%20r%C3%A9sum%C3%A9%E2%9C%93.txt`);
      const inline = (ascii: string, encoded: string) => `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
      // Every replica: they share the directory.
      expect(await disposition(photo.url, small)).toBe(inline('______.png', '%D0%A1%D1%82%D0%B0%D1%80%D1%8B%D0%B9.png'));
      expect(await disposition(photo.thumb_url)).toBe(inline('______.png', '%D0%A1%D1%82%D0%B0%D1%80%D1%8B%D0%B9.png'));

      // Once more: nothing left to name, and the names stay.
      expect((await restoreNames()).stdout).toMatch(/^named 0 file\(s\)/);
      expect(await disposition(cv.url)).toBe(`attachment; filename="vieux resume_.txt"; filename*=UTF-8''vieux%20r%C3%A9sum%C3%A9%E2%9C%93.txt`);
    });

    it('answers 404 in the v2 error body for unknown keys, without caching headers', async () => {
      const res = await fetch(`${stack.baseUrl}/files/ab/abcdef01-0000-0000-0000-000000000000/nothing.txt`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: { code: 404, type: 'Not Found', message: 'File not found.' } });
      expect(res.headers.get('cache-control')).toBeNull();
      expect((await fetch(`${stack.baseUrl}/files/`)).status).toBe(404);
    });

    it('never serves a file outside the storage root, nor a sidecar', async () => {
      const { file } = (await uploadEvent('Notes Q3.txt')).payload;
      const key = new URL(file.url).pathname.slice('/files/'.length);
      for (const path of [
        '/files/..%2fsecret.txt',
        '/files/../secret.txt',
        '/files/%2e%2e/secret.txt',
        '/files/..%2F..%2F..%2Fetc%2Fpasswd',
        '/files/../../../../etc/passwd',
        `/files/${key.split('/')[0]}/..%2f..%2fsecret.txt`,
        '/files/%2fetc%2fpasswd',
        `/files/${key}.meta.json`,
        `/files/${key.replace(/\/[^/]+$/, '/.')}`,
      ]) {
        const res = await rawGet(path);
        expect([400, 404]).toContain(res.status);
        expect(res.body).not.toMatch(/TOP-SECRET|root:|contentType/);
      }
    });
  });
  describe('files of private rooms: credentials or a signed link that expires (or is revoked); a room\'s files go with it', () => {
    const links = new FileLinks(Buffer.from(LINK_SECRET));
    const keyOf = (url: string) => new URL(url).pathname.slice('/files/'.length);
    const paramsOf = (url: string) => Object.fromEntries(new URL(url).searchParams);
    const withToken = (url: string, token: string) => fetchUrl(unsigned(url), stack.baseUrl, { headers: { authorization: `Bearer ${token}` } });
    const storedPaths = (url: string) => [join(root, keyOf(url)), join(root, `${keyOf(url)}.meta.json`)];
    /** A signed link refused as revoked: 401, saying so and how to fetch the file instead. */
    const expectRevoked = async (url: string) => {
      const got = await fetchUrl(url);
      expect({ status: got.status, message: (await got.json()).error?.message }).toEqual({
        status: 401, message: expect.stringMatching(/^This file link was revoked: access to its room has changed since it was issued; fetch it with a token .* or a signed-in session\.$/),
      });
    };
    /**
     * Links are dated in whole seconds, and one issued in the second of a revocation counts as
     * issued before it: a link meant to be issued after waits for the clock to pass that second.
     */
    const afterRevocationSecond = async (room: number) => {
      const at = (await db.query('SELECT file_links_revoked_at AS at FROM rooms WHERE id = $1', [room])).rows[0].at as Date;
      await eventually(() => expect(Math.floor(Date.now() / 1000)).toBeGreaterThan(Math.floor(at.getTime() / 1000)), 3000);
    };
    let privateRoom: number;
    let member: { id: number; token: string };
    let outsider: { id: number; token: string };
    let file: { url: string; thumb_url: string };
    let png: Buffer;

    beforeAll(async () => {
      privateRoom = await createRoom('Falcon Layoffs', { privacy: 'private' });
      const id = await s.createUser('Private Member');
      member = { id, token: await s.personalToken(id) };
      const other = await s.createUser('Outsider');
      outsider = { id: other, token: await s.personalToken(other) };
      expect((await v2(stack.baseUrl, 'PUT', `room/${privateRoom}/member/${member.id}`, { token: s.token })).status).toBe(204);
      png = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#a0a' } }).png().toBuffer();
      expect((await share(privateRoom, form({ name: 'plan.png', type: 'image/png', data: png }), FORM, { token: member.token })).status).toBe(204);
      file = (await uploadEvent('plan.png')).payload.file;
    });

    it('serves a member (bearer token or auth_token) with Cache-Control private, the thumbnail too', async () => {
      const got = await withToken(file.url, member.token);
      expect(got.status).toBe(200);
      expect(Buffer.from(await got.arrayBuffer()).equals(png)).toBe(true);
      expect(got.headers.get('cache-control')).toBe('private, no-cache');
      const thumb = await withToken(file.thumb_url, member.token);
      expect([thumb.status, thumb.headers.get('cache-control')]).toEqual([200, 'private, no-cache']);
      const viaQuery = await fetchUrl(`${unsigned(file.url)}?auth_token=${member.token}`);
      expect([viaQuery.status, viaQuery.headers.get('cache-control')]).toEqual([200, 'private, no-cache']);
      // A v1 admin token reads every room's history (v1 history shows these links), so it may fetch them.
      const v1Admin = await fetchUrl(`${unsigned(file.url)}?auth_token=${s.v1Admin}`);
      expect([v1Admin.status, v1Admin.headers.get('cache-control')]).toEqual([200, 'private, no-cache']);
      // A group admin who is not a member reads it too, as they read its history; and on every replica.
      expect((await withToken(file.url, s.token)).status).toBe(200);
      expect((await fetchUrl(`${unsigned(file.url)}?auth_token=${member.token}`, small)).status).toBe(200);
    });

    it('refuses a user who may not read the room (404), and an unsigned link without credentials (401), never naming the room', async () => {
      const stranger = await withToken(file.url, outsider.token);
      expect(stranger.status).toBe(404);
      expect(await stranger.json()).toEqual({ error: { code: 404, type: 'Not Found', message: 'File not found.' } });
      expect((await withToken(file.thumb_url, outsider.token)).status).toBe(404);
      const anonymous = await fetchUrl(unsigned(file.url));
      expect(anonymous.status).toBe(401);
      const body = await anonymous.text();
      expect(body).toMatch(/needs credentials/);
      expect(body).not.toMatch(/Falcon/);
      expect(anonymous.headers.get('cache-control')).toBeNull();
      expect((await fetchUrl(unsigned(file.thumb_url))).status).toBe(401);
      // An unknown token is refused as everywhere in v2.
      expect((await withToken(file.url, 'not-a-token')).status).toBe(401);
    });

    it('serves the signed link of room_file_upload without credentials until it expires (FILE_LINK_TTL, 7 days), private to the browser', async () => {
      for (const url of [file.url, file.thumb_url]) {
        const { expires } = paramsOf(url);
        expect(Number(expires) - Date.now() / 1000).toBeGreaterThan(7 * 86400 - 300);
        expect(Number(expires) - Date.now() / 1000).toBeLessThanOrEqual(7 * 86400);
        const got = await fetchUrl(url);
        expect(got.status).toBe(200);
        expect(got.headers.get('cache-control')).toBe('private, max-age=3600');
      }
      // One that expires in a minute is kept no longer than that.
      const soon = Math.floor(Date.now() / 1000) + 60;
      const got = await fetchUrl(`${unsigned(file.url)}?${links.query(keyOf(file.url), soon, Number(paramsOf(file.url).issued))}`);
      expect(got.status).toBe(200);
      expect(Number(/max-age=(\d+)/.exec(got.headers.get('cache-control') ?? '')?.[1])).toBeLessThanOrEqual(60);
    });

    it('refuses an expired, altered or borrowed signature (401), unless the credentials given may read the room', async () => {
      const past = Math.floor(Date.now() / 1000) - 1;
      const expired = `${unsigned(file.url)}?${links.query(keyOf(file.url), past, Number(paramsOf(file.url).issued))}`;
      const gotExpired = await fetchUrl(expired);
      expect(gotExpired.status).toBe(401);
      expect(await gotExpired.text()).toMatch(/expired/);
      const { expires, issued, signature } = paramsOf(file.url);
      const altered = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
      expect((await fetchUrl(`${unsigned(file.url)}?expires=${expires}&issued=${issued}&signature=${altered}`)).status).toBe(401);
      // A later expiry or issue time with the old signature, and the file's signature on its thumbnail.
      expect((await fetchUrl(`${unsigned(file.url)}?expires=${Number(expires) + 86400}&issued=${issued}&signature=${signature}`)).status).toBe(401);
      const reissued = await fetchUrl(`${unsigned(file.url)}?expires=${expires}&issued=${Number(issued) + 3600}&signature=${signature}`);
      expect([reissued.status, (await reissued.json()).error.message]).toEqual([401, expect.stringMatching(/link is not valid/)]);
      expect((await fetchUrl(`${unsigned(file.thumb_url)}?expires=${expires}&issued=${issued}&signature=${signature}`)).status).toBe(401);
      // Credentials decide when the link does not.
      expect((await fetchUrl(expired, stack.baseUrl, { headers: { authorization: `Bearer ${member.token}` } })).status).toBe(200);
      expect((await fetchUrl(expired, stack.baseUrl, { headers: { authorization: `Bearer ${outsider.token}` } })).status).toBe(404);
    });

    it('serves the console\'s session cookie as it serves a token; a session that ended counts as none', async () => {
      const email = `files${Date.now()}@example.com`;
      const res = await v1(stack.baseUrl, 'POST', 'users/create', { auth_token: s.v1Admin, name: 'Console Reader', email, password: 'correct horse 1' });
      const reader = res.json.user.user_id as number;
      expect((await v2(stack.baseUrl, 'PUT', `room/${privateRoom}/member/${reader}`, { token: s.token })).status).toBe(204);
      const signIn = await fetch(`${stack.baseUrl}/v2/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'correct horse 1' }) });
      expect(signIn.status).toBe(201);
      const cookie = /chat_session=[A-Za-z0-9]+/.exec(signIn.headers.get('set-cookie') ?? '')![0];
      const got = await fetchUrl(unsigned(file.thumb_url), stack.baseUrl, { headers: { cookie } });
      expect([got.status, got.headers.get('cache-control')]).toEqual([200, 'private, no-cache']);
      expect((await fetchUrl(unsigned(file.url), stack.baseUrl, { headers: { cookie: 'chat_session=0123456789abcdefghijKLMN' } })).status).toBe(401);
    });

    it('refuses the member once removed, at once (the bytes stay for the others), and revokes the room\'s signed links they may hold', async () => {
      const id = await s.createUser('Leaving Member');
      const leaving = await s.personalToken(id);
      expect((await v2(stack.baseUrl, 'PUT', `room/${privateRoom}/member/${id}`, { token: s.token })).status).toBe(204);
      expect((await withToken(file.url, leaving)).status).toBe(200);
      expect((await fetchUrl(file.url)).status).toBe(200);
      expect((await v2(stack.baseUrl, 'DELETE', `room/${privateRoom}/member/${id}`, { token: s.token })).status).toBe(204);
      expect((await withToken(file.url, leaving)).status).toBe(404);
      expect((await withToken(file.thumb_url, leaving)).status).toBe(404);
      expect((await withToken(file.url, member.token)).status).toBe(200);

      // Losing access loses everything: the signed links handed out before are bearer links, refused from now on.
      await expectRevoked(file.url);
      await expectRevoked(file.thumb_url);
      // Credentials beside a revoked link are judged as without it.
      expect((await fetchUrl(file.url, stack.baseUrl, { headers: { authorization: `Bearer ${member.token}` } })).status).toBe(200);
      expect((await fetchUrl(file.url, stack.baseUrl, { headers: { authorization: `Bearer ${leaving}` } })).status).toBe(404);

      // A link issued after the removal works.
      await afterRevocationSecond(privateRoom);
      expect((await share(privateRoom, form({ name: 'after-removal.txt', type: 'text/plain', data: Buffer.from('later') }), FORM, { token: member.token })).status).toBe(204);
      const later = (await uploadEvent('after-removal.txt')).payload.file;
      const got = await fetchUrl(later.url);
      expect([got.status, await got.text()]).toEqual([200, 'later']);
    });

    it('revokes a private room\'s signed links when one of its webhooks is deleted (its receiver held them)', async () => {
      const room = await createRoom('Hooked Private', { privacy: 'private' });
      const unhooked = await createRoom('Unhooked Private', { privacy: 'private' });
      expect((await share(unhooked, form({ name: 'unhooked.txt', type: 'text/plain', data: Buffer.from('stays') }), FORM)).status).toBe(204);
      const stays = (await uploadEvent('unhooked.txt')).payload.file;
      const hook = await v2(stack.baseUrl, 'POST', `room/${room}/webhook`, { token: s.token, body: { url: 'https://receiver.example.com/files', event: 'room_file_upload' } });
      expect(hook.status).toBe(201);
      expect((await share(room, form({ name: 'hooked.txt', type: 'text/plain', data: Buffer.from('hooked') }), FORM)).status).toBe(204);
      const hooked = (await uploadEvent('hooked.txt')).payload.file;
      expect((await fetchUrl(hooked.url)).status).toBe(200);

      expect((await v2(stack.baseUrl, 'DELETE', `room/${room}/webhook/${hook.json.id}`, { token: s.token })).status).toBe(204);
      await expectRevoked(hooked.url);
      expect((await withToken(hooked.url, s.token)).status).toBe(200);
      // Other rooms' links stand.
      expect((await fetchUrl(stays.url)).status).toBe(200);
    });

    it('refuses a signed link made before links were dated (no `issued`) for a private room, as revoked', async () => {
      const { expires } = paramsOf(file.url);
      // Signed over the path and the expiry alone, as links were then.
      const legacy = createHmac('sha256', Buffer.from(LINK_SECRET)).update(`/files/${keyOf(file.url)}\n${expires}`).digest('base64url');
      const got = await fetchUrl(`${unsigned(file.url)}?expires=${expires}&signature=${legacy}`);
      expect({ status: got.status, message: (await got.json()).error.message }).toEqual({ status: 401, message: expect.stringMatching(/^This file link was revoked: it was made before links carried their issue time/) });
    });

    it('makes a public room\'s files private with the room: checked at every request, not at upload', async () => {
      const room = await createRoom('Goes Private');
      expect((await share(room, form({ name: 'was-public.txt', type: 'text/plain', data: Buffer.from('open') }), FORM)).status).toBe(204);
      const open = (await uploadEvent('was-public.txt')).payload.file;
      expect((await fetchUrl(unsigned(open.url))).status).toBe(200);
      expect((await v2(stack.baseUrl, 'PUT', `room/${room}`, { token: s.token, body: { privacy: 'private' } })).status).toBe(204);
      expect((await fetchUrl(unsigned(open.url))).status).toBe(401);
      expect((await withToken(open.url, outsider.token)).status).toBe(404);
      const owner = await withToken(open.url, s.token);
      expect([owner.status, owner.headers.get('cache-control')]).toEqual([200, 'private, no-cache']);
      // The link its webhooks got while it was public is revoked with the change (as long as it stays private).
      await expectRevoked(open.url);
    });

    it('removes a room\'s files with the room: 404 at once for every link, and gone from the storage', async () => {
      const room = await createRoom('Short Lived', { privacy: 'private' });
      expect((await share(room, form({ name: 'doomed.png', type: 'image/png', data: png }), FORM)).status).toBe(204);
      const doomed = (await uploadEvent('doomed.png')).payload.file;
      const paths = [...storedPaths(doomed.url), ...storedPaths(doomed.thumb_url)];
      expect(paths.every((p) => existsSync(p))).toBe(true);
      expect((await withToken(doomed.url, s.token)).status).toBe(200);

      expect((await v2(stack.baseUrl, 'DELETE', `room/${room}`, { token: s.token })).status).toBe(204);
      for (const url of [doomed.url, doomed.thumb_url]) {
        expect((await withToken(url, s.token)).status).toBe(404);
        expect((await fetchUrl(url)).status).toBe(404);
        expect((await fetchUrl(unsigned(url))).status).toBe(404);
      }
      // Removed from the storage by the gateways' cleanup, after the commit; then their rows
      // (a second call: the files go first, so a row is never dropped for a file still stored).
      const rowsLeft = async () => (await db.query('SELECT count(*)::int AS n FROM room_files WHERE room_id = $1', [room])).rows[0].n as number;
      const deadline = Date.now() + 20_000;
      while ((paths.some((p) => existsSync(p)) || (await rowsLeft()) > 0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(paths.filter((p) => existsSync(p))).toEqual([]);
      expect(await rowsLeft()).toBe(0);
      // The other rooms' files stay.
      expect((await withToken(file.url, member.token)).status).toBe(200);
    });
  });
});
