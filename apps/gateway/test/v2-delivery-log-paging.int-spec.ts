import { Client } from 'pg';
import { Stack, startStack } from '../../../test/support/harness';
import { v2, v2Session, V2Session } from './v2-helpers';

/**
 * Paging a webhook's delivery log as a client does, by following `links.next`, against the
 * gateway, the rooms service and a webhook dispatcher on the real PostgreSQL and RabbitMQ.
 * Deliveries are written straight into the dispatcher's table, at chosen times: several of
 * one instant, several of one millisecond, and new ones arriving while the client pages.
 */
/** Where the links point (the gateway's PUBLIC_BASE_URL); the test calls its own port. */
const BASE = 'https://chat.example.test';

describe('v2 delivery log: following links.next', () => {
  let stack: Stack;
  let s: V2Session;
  let db: Client;
  let path: string;
  let webhookId: number;

  /** Deliveries of the webhook at these times; answers their ids. */
  const insertAt = async (times: string[]) => (await db.query(
    `INSERT INTO webhook_deliveries (id, webhook_id, event, event_id, status, attempts, envelope, created_at)
     SELECT gen_random_uuid(), $1::int, 'room_message', 'paging-' || t.i, 'delivered', 1, '{}', t.at
       FROM unnest($2::timestamptz[]) WITH ORDINALITY AS t (at, i)
     RETURNING id`,
    [webhookId, times],
  )).rows.map((r: { id: string }) => r.id);
  const inLogOrder = async () => (await db.query(
    'SELECT id FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC', [webhookId],
  )).rows.map((r: { id: string }) => r.id);
  const get = (url: string) => fetch(url.replace(BASE, stack.baseUrl), { headers: { authorization: `Bearer ${s.token}` } })
    .then(async (r) => ({ status: r.status, body: await r.json() as any }));

  /** Every page from `first`, by links.next, calling `between` before each next one. */
  const follow = async (first: string, between: () => Promise<unknown> = async () => undefined) => {
    const pages: any[] = [];
    for (let url: string | undefined = first; url !== undefined;) {
      const page = await get(url);
      expect(page.status).toBe(200);
      pages.push(page.body);
      url = page.body.links.next;
      if (url !== undefined) await between();
      if (pages.length > 50) throw new Error('no last page');
    }
    return pages;
  };

  beforeAll(async () => {
    stack = await startStack({
      gateway: { PUBLIC_BASE_URL: BASE, V2_RATE_LIMIT_MAX: '100000' }, rooms: { PUBLIC_BASE_URL: BASE, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, dispatcher: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' },
    });
    s = await v2Session(stack);
    const room = await v2(stack.baseUrl, 'POST', 'room', { token: s.token, body: { name: 'Paged Log' } });
    const hook = await v2(stack.baseUrl, 'POST', `room/${room.json.id}/webhook`, {
      token: s.token, body: { url: 'http://127.0.0.1:9/hook', event: 'room_message' },
    });
    webhookId = hook.json.id;
    path = `${BASE}/v2/room/${room.json.id}/webhook/${webhookId}/delivery`;
    db = new Client({ connectionString: stack.databaseUrl });
    await db.connect();
    await insertAt([
      // Four of one instant, to the microsecond; three more of its millisecond; others apart.
      ...Array(4).fill('2026-02-01T00:00:00.123456Z'),
      '2026-02-01T00:00:00.123999Z', '2026-02-01T00:00:00.123457Z', '2026-02-01T00:00:00.123001Z',
      '2026-02-01T00:00:01Z', '2026-01-31T00:00:00Z', '2026-01-30T00:00:00.5Z', '2026-01-29T00:00:00Z',
    ]);
  });
  afterAll(async () => {
    await db?.end().catch(() => undefined);
    await stack?.stop();
  });

  it('shows every delivery exactly once, in order, while new ones arrive at the top between pages', async () => {
    const before = await inLogOrder();
    let n = 0;
    const arrive = () => insertAt([new Date(Date.UTC(2026, 2, 1, 0, 0, n++)).toISOString()]);
    const pages = await follow(`${path}?max-results=3`, arrive);
    const seen = pages.flatMap((p) => p.items.map((d: { id: string }) => d.id));
    // By offset alone, each arrival pushed the page's last item onto the next page: seen twice.
    expect(seen.filter((id, i) => seen.indexOf(id) !== i)).toEqual([]);
    expect(seen).toEqual(before);
    expect(n).toBe(3);
    // start-index goes on as before (echoed: the client's count), and prev pages by it.
    expect(pages.map((p) => p.startIndex)).toEqual([0, 3, 6, 9]);
    const next = new URL(pages[0].links.next);
    expect([...next.searchParams.keys()]).toEqual(['start-index', 'max-results', 'after']);
    expect(next.searchParams.get('after')).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(pages[1].links.prev).toBe(`${path}?start-index=0&max-results=3`);
    // The filters go along; the cursor of the request does not (each next has the cursor after its own page).
    const filtered = await follow(`${path}?max-results=4&status=delivered&event=room_message&since=2026-01-30T00:00:00Z`);
    expect(filtered.flatMap((p) => p.items.map((d: { id: string }) => d.id))).toEqual((await inLogOrder()).slice(0, -1));
    expect(new URL(filtered[1].links.next).searchParams.get('status')).toBe('delivered');
    expect(filtered[1].links.next).not.toContain(new URL(filtered[0].links.next).searchParams.get('after'));
  });

  it('still places a page by start-index alone, for clients that count themselves', async () => {
    const all = await inLogOrder();
    const page = await get(`${path}?start-index=5&max-results=2`);
    expect(page.body.items.map((d: { id: string }) => d.id)).toEqual(all.slice(5, 7));
    expect(page.body.startIndex).toBe(5);
  });

  it('answers a malformed after with 400 naming it and its rule, never a 500', async () => {
    const rule = (got: string) => ({
      status: 400,
      body: { error: { code: 400, type: expect.any(String), message: `after: must be a cursor as the list's links.next gives it (got "${got.slice(0, 50)}")` } },
    });
    // Not base64url; base64url of a time cut to the millisecond (a Date's), with an id; of no position at all.
    const cut = Buffer.from('2026-02-01T00:00:00.123Z 6f1c2a4e-3b5d-5e7f-8a9b-0c1d2e3f4a5b').toString('base64url');
    for (const after of ['not+a/cursor', cut, 'AAAA']) expect(await get(`${path}?after=${encodeURIComponent(after)}`)).toEqual(rule(after));
  });
});
