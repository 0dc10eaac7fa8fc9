// The delivery log at a million rows: 1,000,000 deliveries seeded in the dispatcher's tables
// (50,000 of them the bench webhook's, the rest spread over 1,000 other webhooks, with
// attempts), then the log read through the API at a paced 200 requests/s: the newest page,
// the failed ones, a later page, and single deliveries with their attempts.
const { Client } = require('pg');
const { log, sleep } = require('../lib/util');
const { registerWebhook, startReceiver } = require('../lib/receiver');

const ROWS = 1_000_000;
const OWN = 50_000;
const RATE = 200;

async function seed(databaseUrl, webhookId, roomId) {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const started = Date.now();
    // Deterministic ids (md5 as uuid), spread over 30 days; 85% delivered, 10% failed, 5% retrying.
    await db.query(`
      INSERT INTO webhook_deliveries (id, webhook_id, event, event_id, room_id, status, attempts, last_status, envelope, created_at, updated_at)
      SELECT md5('bench-delivery-' || g)::uuid,
             CASE WHEN g <= $1 THEN $2 ELSE 1000000 + g % 1000 END,
             'room_notification', 'bench-event-' || g, $3,
             CASE WHEN g % 20 < 17 THEN 'delivered' WHEN g % 20 < 19 THEN 'failed' ELSE 'retrying' END,
             CASE WHEN g % 20 < 17 THEN 1 ELSE 3 END,
             CASE WHEN g % 20 < 17 THEN 204 ELSE 500 END,
             '{"event":"room_notification","item":{"message":{"message":"seeded ' || g || '"}}}',
             now() - (g % 2592000) * interval '1 second', now()
        FROM generate_series(1, $4) AS g
      ON CONFLICT (id) DO NOTHING`, [OWN, webhookId, roomId, ROWS]);
    await db.query(`
      INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status, error, response_excerpt)
      SELECT d.id, a, d.created_at + (a - 1) * interval '5 seconds', 12,
             CASE WHEN d.status = 'delivered' THEN 204 ELSE 500 END, NULL, NULL
        FROM webhook_deliveries d, generate_series(1, 3) AS a
       WHERE a <= d.attempts AND d.event_id LIKE 'bench-event-%'
      ON CONFLICT DO NOTHING`);
    // A table that grew to a million rows over months has been vacuumed (visibility map,
    // hint bits) and checkpointed: measure that, not the minutes after a bulk load, when
    // every first read of a page writes it again and autovacuum and a checkpoint compete.
    await db.query('VACUUM (ANALYZE) webhook_deliveries');
    await db.query('VACUUM (ANALYZE) webhook_attempts');
    await db.query('CHECKPOINT');
    const { rows } = await db.query('SELECT (SELECT count(*) FROM webhook_deliveries)::int AS deliveries, (SELECT count(*) FROM webhook_attempts)::int AS attempts');
    log(`delivery-log: seeded ${rows[0].deliveries} deliveries, ${rows[0].attempts} attempts in ${Math.round((Date.now() - started) / 1000)} s`);
    const ids = await db.query(`SELECT id FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY random() LIMIT 500`, [webhookId]);
    return { ...rows[0], ids: ids.rows.map((r) => r.id) };
  } finally {
    await db.end();
  }
}

module.exports = {
  name: 'delivery-log',
  description: `the delivery log with ${ROWS.toLocaleString('en')} rows, read at ${RATE}/s (lists, filters, details)`,
  targets: [{ metric: 'http.p99', max: 50, label: 'log p99 <= 50 ms' }],

  async setup(ctx) {
    const room = await ctx.fixtures.room('delivery-log');
    const receiver = await startReceiver();
    const token = await ctx.fixtures.personalToken();
    const hookId = await registerWebhook(ctx.baseUrl, token, room.room_id, { url: receiver.url(), event: 'room_notification', name: 'log bench' });
    await receiver.close();
    const seeded = await seed(ctx.system.databaseUrl, hookId, room.room_id);
    await sleep(1000);
    return { token, base: `/v2/room/${room.room_id}/webhook/${hookId}`, seeded };
  },

  async run(ctx, { token, base, seeded }) {
    const paths = [
      () => `${base}/delivery`,
      () => `${base}/delivery?status=failed`,
      () => `${base}/delivery?start-index=100&max-results=100`,
      (i) => `${base}/delivery/${seeded.ids[i % seeded.ids.length]}`,
    ];
    const counts = {};
    const load = (durationS) => ctx.paced({
      rate: RATE,
      durationS,
      makeRequest: (i) => ({ method: 'GET', path: paths[i % paths.length](i), headers: { authorization: `Bearer ${token}` } }),
      onResponse: (status) => { counts[status] = (counts[status] || 0) + 1; },
    });
    await load(ctx.settings.warmup);
    const http = await load(ctx.settings.duration);
    if (http.non2xx > 0) throw new Error(`the log answered non-2xx: ${JSON.stringify(counts)}`);
    return { http, seeded: { deliveries: seeded.deliveries, attempts: seeded.attempts } };
  },
};
