import { Stack, startStack, V1Response } from '../../../test/support/harness';
import { v2, v2Session, V2Session } from './v2-helpers';

const BASE = 'http://127.0.0.1:8080';
const errorOf = (res: V1Response) => ({ status: res.status, message: res.json.error.message as string });

describe('v2 emoticons and their public images (real services)', () => {
  let stack: Stack;
  let s: V2Session;

  const get = (path: string, query: Record<string, string | number> = {}, token = s.token) => v2(stack.baseUrl, 'GET', path, { token, query });

  beforeAll(async () => {
    stack = await startStack({ gateway: { V2_RATE_LIMIT_MAX: '10000' }, rooms: true });
    s = await v2Session(stack);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('GET /v2/emoticon', () => {
    it('lists the catalogue, (allthethings) first, as {items, startIndex, maxResults, links}', async () => {
      const res = await get('emoticon');
      expect(res.status).toBe(200);
      expect(Object.keys(res.json).sort()).toEqual(['items', 'links', 'maxResults', 'startIndex']);
      expect(res.json).toMatchObject({ startIndex: 0, maxResults: 100, links: { self: `${BASE}/v2/emoticon` } });
      expect(res.json.items.length).toBeGreaterThanOrEqual(60);
      expect(res.json.items[0]).toEqual({
        id: 1, links: { self: `${BASE}/v2/emoticon/1` }, shortcut: 'allthethings', url: `${BASE}/emoticons/allthethings.svg`,
      });
      for (const item of res.json.items) {
        expect(Object.keys(item).sort()).toEqual(['id', 'links', 'shortcut', 'url']);
        expect(Number.isInteger(item.id)).toBe(true);
      }
    });

    it('pages with start-index and max-results, linking prev and next', async () => {
      const all = (await get('emoticon', { 'max-results': 1000 })).json.items as Array<{ id: number }>;
      const first = await get('emoticon', { 'max-results': 10 });
      expect(first.json.items.map((e: { id: number }) => e.id)).toEqual(all.slice(0, 10).map((e) => e.id));
      expect(first.json.links.next).toBe(`${BASE}/v2/emoticon?start-index=10&max-results=10`);
      const tail = await get('emoticon', { 'start-index': all.length - 3, 'max-results': 10 });
      expect(tail.json.items).toHaveLength(3);
      expect(tail.json.links).toMatchObject({ prev: expect.stringContaining(`start-index=${all.length - 13}`) });
      expect(tail.json.links).not.toHaveProperty('next');
    });

    it('filters by type: global is everything, group is empty', async () => {
      const all = (await get('emoticon', { 'max-results': 1000 })).json.items;
      expect((await get('emoticon', { type: 'global', 'max-results': 1000 })).json.items).toEqual(all);
      expect((await get('emoticon', { type: 'group' })).json.items).toEqual([]);
      expect(errorOf(await get('emoticon', { type: 'private' }))).toEqual({ status: 400, message: 'type: must be one of all, global, group (got "private")' });
      expect(errorOf(await get('emoticon', { 'max-results': 1001 })).message).toMatch(/^max-results: /);
    });

    it('answers 401 without a token and 403 naming view_group', async () => {
      expect((await v2(stack.baseUrl, 'GET', 'emoticon')).status).toBe(401);
      const token = await s.personalToken(s.adminId, ['send_message']);
      expect(errorOf(await get('emoticon', {}, token))).toEqual({ status: 403, message: expect.stringContaining('view_group') });
      expect(errorOf(await get('emoticon/allthethings', {}, token)).status).toBe(403);
    });
  });

  describe('GET /v2/emoticon/{id_or_shortcut}', () => {
    const detail = {
      id: 1, shortcut: 'allthethings', type: 'global', url: `${BASE}/emoticons/allthethings.svg`, width: 30, height: 30,
      audio_path: null, links: { self: `${BASE}/v2/emoticon/1` },
    };

    it('answers the emoticon by id, by shortcut and by (shortcut)', async () => {
      for (const key of ['1', 'allthethings', 'AllTheThings', encodeURIComponent('(allthethings)')]) {
        const res = await get(`emoticon/${key}`);
        expect(res.status).toBe(200);
        expect(res.json).toEqual(detail);
      }
    });

    it('answers 404 for an unknown one', async () => {
      expect(errorOf(await get('emoticon/nosuchthing'))).toEqual({ status: 404, message: 'Emoticon nosuchthing not found' });
      expect(errorOf(await get('emoticon/99999'))).toEqual({ status: 404, message: 'Emoticon 99999 not found' });
    });
  });

  describe('GET /emoticons/<shortcut>.svg', () => {
    it('serves the image its url names, publicly, as cacheable SVG', async () => {
      const { url } = (await get('emoticon/allthethings')).json;
      const res = await fetch(url.replace(BASE, stack.baseUrl));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
      const svg = await res.text();
      expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="30" height="30"/);
      expect(svg).toContain('<title>(allthethings)</title>');
      // No token, and no rate-limit count either.
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    });

    it('serves every emoticon of the list', async () => {
      const items = (await get('emoticon', { 'max-results': 1000 })).json.items as Array<{ url: string; shortcut: string }>;
      for (const item of items.slice(0, 10)) {
        const res = await fetch(item.url.replace(BASE, stack.baseUrl));
        expect(res.status).toBe(200);
        expect(await res.text()).toContain(`(${item.shortcut})`);
      }
    });

    it('answers 404 for an unknown image, an id or another extension', async () => {
      for (const path of ['nosuchthing.svg', '1.svg', 'allthethings.png', 'allthethings']) {
        const res = await fetch(`${stack.baseUrl}/emoticons/${path}`);
        expect(res.status).toBe(404);
        expect(res.headers.get('cache-control')).not.toBe('public, max-age=86400');
        expect(((await res.json()) as { error: unknown }).error).toMatchObject({ code: 404, type: 'Not Found' });
      }
    });
  });
});
