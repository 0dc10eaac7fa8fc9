// The delivery log, 10k to 1M rows in webhook_deliveries (half of them one webhook's, the
// others spread over the seeded webhooks), within the 30 days the dispatcher keeps them:
// that webhook's list (newest page, failed ones, a page in the middle) and one delivery.
const { registerWebhook, startReceiver } = require('../../lib/receiver');
const { retry } = require('../../lib/util');
const { seedDeliveries } = require('../seed');

/** Every seeded delivery is younger than this: the pruner (30 days by default) leaves them alone. */
const WINDOW_MS = 29 * 86_400_000;
const MARKER = 'scale-log-template';

/** A real delivery of the webhook (its envelope and its attempt's response headers): what the seeded rows copy. */
async function recordTemplate(ctx, roomId, webhookId) {
  const res = await fetch(`${ctx.baseUrl}/v2/room/${roomId}/message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.personalToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ message: MARKER }),
  });
  if (res.status !== 201) throw new Error(`POST /v2/room/${roomId}/message answered ${res.status}`);
  return retry(async () => {
    const { rows } = await ctx.db.query(`SELECT d.envelope, a.response_headers FROM webhook_deliveries d
      JOIN webhook_attempts a ON a.delivery_id = d.id WHERE d.webhook_id = $1 AND d.status = 'delivered'`, [webhookId]);
    if (!rows[0]) throw new Error(`the template delivery of webhook ${webhookId} was not recorded within 30 s`);
    return { envelope: rows[0].envelope, marker: MARKER, headers: JSON.stringify(rows[0].response_headers) };
  }, 30_000, 200);
}

module.exports = {
  name: 'delivery-log',
  title: 'Delivery log',
  unit: 'deliveries',
  sizes: [10_000, 100_000, 1_000_000],
  tables: ['webhook_deliveries', 'webhook_attempts'],

  async setup(ctx) {
    const room = await ctx.fixtures.room('scale-log');
    const receiver = await startReceiver();
    let template;
    let webhookId;
    try {
      webhookId = await registerWebhook(ctx.baseUrl, ctx.personalToken, room.room_id, { url: receiver.url('/log'), event: 'room_message', name: 'scale log' });
      template = await recordTemplate(ctx, room.room_id, webhookId);
    } finally {
      await receiver.close();
    }
    // The other rows belong to the seeded webhooks (the registrations dimension's), else to ids of no webhook (no foreign key).
    const { rows } = await ctx.db.query(`SELECT id, room_id FROM webhooks WHERE url LIKE 'http://127.0.0.1:9/scale/%' ORDER BY id LIMIT 10000`);
    const others = rows.length
      ? { ids: rows.map((r) => r.id), roomIds: rows.map((r) => r.room_id) }
      : { ids: [...Array(1000).keys()].map((k) => 1_000_000 + k), roomIds: [room.room_id] };
    const largest = ctx.sizes(this)[2];
    const spacingMs = WINDOW_MS / largest;
    return { room, webhookId, template, others, startMs: Date.now() - WINDOW_MS, spacingMs, seeded: 0 };
  },

  async grow(ctx, state, size) {
    const { rows: [c] } = await ctx.db.query('SELECT count(*)::int AS n FROM webhook_deliveries');
    const need = size - c.n;
    if (need <= 0) return 0;
    await seedDeliveries(ctx.db, {
      from: state.seeded + 1, to: state.seeded + need, log: { id: state.webhookId, roomId: state.room.room_id }, others: state.others,
      ownerId: await ctx.fixtures.owner(), startMs: state.startMs, spacingMs: state.spacingMs, template: state.template,
    });
    state.seeded += need;
    return need;
  },

  async rows(ctx, state) {
    const base = `/v2/room/${state.room.room_id}/webhook/${state.webhookId}/delivery`;
    const { rows: [c] } = await ctx.db.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1', [state.webhookId]);
    // 200 of the webhook's deliveries, any of them: each detail request reads another one.
    const { rows } = await ctx.db.query('SELECT id FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY random() LIMIT 200', [state.webhookId]);
    const ids = rows.map((r) => r.id);
    return [
      { name: 'list, newest 100', path: () => `${base}?max-results=100`, v2: true },
      { name: 'list, status=failed, newest 100', path: () => `${base}?status=failed&max-results=100`, v2: true },
      {
        name: 'list, start-index=N/2, 100',
        path: () => `${base}?start-index=${Math.floor(c.n / 2)}&max-results=100`,
        v2: true,
        note: 'OFFSET paging: start-index = half the webhook\'s deliveries makes PostgreSQL read and drop that many index entries and rows before the page',
      },
      { name: 'one delivery with its attempts', path: (i) => `${base}/${ids[i % ids.length]}`, v2: true },
    ];
  },
};
