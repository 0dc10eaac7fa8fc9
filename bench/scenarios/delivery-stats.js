// A webhook's delivery statistics (the console's charts) with a small and a large delivery
// log: the webhook's own window is the same at both sizes (5,000 deliveries over the last 7
// days), and the log grows from 10,000 rows to 1,000,000 with other webhooks' deliveries and
// this webhook's older ones (8 to 29 days old). Each size times GET .../delivery-stats as the
// console asks it (the last 24 hours per hour; the last 7 days per day), one request at a
// time, and the row is judged as the scale mode judges its curves: flat when p99 at the large
// size is at most 2x p99 at the small one.
const { Client } = require('pg');
const { log } = require('../lib/util');
const { registerWebhook, startReceiver } = require('../lib/receiver');
const { FLAT_FACTOR, verdict } = require('../scale/curve');
const { timeGets } = require('../scale/measure');

const SMALL = 10_000;
const LARGE = 1_000_000;
/** The webhook's own deliveries within the last 7 days: the window both sizes answer. */
const OWN_WINDOW = 5_000;
const WEEK_S = 7 * 86_400;
const REQUESTS = 200;
const WARMUP = 20;
const BUDGET_MS = 30_000;

/**
 * Deliveries g in [from, to], as the dispatcher records them, with one attempt row per try:
 * 90% delivered at the first attempt, 6% failed after 3, 3% delivered at the second, 1%
 * cancelled. `webhook` and `createdAt` are SQL expressions of g.
 */
async function seedRows(db, { from, to, webhook, createdAt, params = [] }) {
  const p = params.length;
  await db.query(`
    INSERT INTO webhook_deliveries (id, webhook_id, event, event_id, room_id, status, attempts, last_status, envelope, created_at, updated_at)
    SELECT md5('stats-bench-' || g)::uuid, ${webhook}, 'room_message', 'stats-bench-' || g, 1,
           CASE WHEN g % 100 < 90 THEN 'delivered' WHEN g % 100 < 96 THEN 'failed' WHEN g % 100 < 99 THEN 'delivered' ELSE 'cancelled' END,
           CASE WHEN g % 100 < 90 THEN 1 WHEN g % 100 < 96 THEN 3 WHEN g % 100 < 99 THEN 2 ELSE 0 END,
           CASE WHEN g % 100 BETWEEN 90 AND 95 THEN 500 ELSE 204 END,
           '{"event":"room_message","item":{"message":{"message":"seeded ' || g || '"}}}',
           ${createdAt}, now()
      FROM generate_series($${p + 1}::bigint, $${p + 2}::bigint) AS g
    ON CONFLICT (id) DO NOTHING`, [...params, from, to]);
  await db.query(`
    INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status)
    SELECT md5('stats-bench-' || g)::uuid, a, now(), 5 + (g * 7 + a) % 60, CASE WHEN a < 2 AND g % 100 >= 90 THEN 500 ELSE 204 END
      FROM generate_series($1::bigint, $2::bigint) AS g,
           LATERAL generate_series(1, CASE WHEN g % 100 < 90 THEN 1 WHEN g % 100 < 96 THEN 3 WHEN g % 100 < 99 THEN 2 ELSE 0 END) AS a
    ON CONFLICT DO NOTHING`, [from, to]);
}

/** As a log that grew over months is: vacuumed, analysed, checkpointed (see delivery-log.js). */
async function settle(db) {
  await db.query('VACUUM (ANALYZE) webhook_deliveries');
  await db.query('VACUUM (ANALYZE) webhook_attempts');
  await db.query('CHECKPOINT');
}

module.exports = {
  name: 'delivery-stats',
  description: `a webhook's delivery statistics (24 h per hour, 7 days per day) with a log of ${SMALL.toLocaleString('en')} and of ${LARGE.toLocaleString('en')} rows`,
  targets: [
    { metric: 'stats.worstRatio', max: FLAT_FACTOR, label: `stats p99 at 1M / at 10k <= ${FLAT_FACTOR}` },
  ],

  async setup(ctx) {
    const room = await ctx.fixtures.room('delivery-stats');
    const receiver = await startReceiver();
    const token = await ctx.fixtures.personalToken();
    const hookId = await registerWebhook(ctx.baseUrl, token, room.room_id, { url: receiver.url(), event: 'room_notification', name: 'stats bench' });
    await receiver.close();
    return { token, hookId, base: `/v2/room/${room.room_id}/webhook/${hookId}/delivery-stats` };
  },

  async run(ctx, { token, hookId, base }) {
    const db = new Client({ connectionString: ctx.system.databaseUrl });
    await db.connect();
    const rows = [
      { name: 'last 24 hours, per hour', path: () => base },
      // A minute inside the 7 days: the request's own time moves on while it is sent.
      { name: 'last 7 days, per day', path: () => `${base}?bucket=day&since=${encodeURIComponent(new Date(Date.now() - WEEK_S * 1000 + 60_000).toISOString())}` },
    ];
    const figures = rows.map(() => []);
    const sizes = [];
    try {
      const measure = async (label) => {
        const { rows: [c] } = await db.query('SELECT count(*)::int AS n FROM webhook_deliveries');
        sizes.push(c.n);
        log(`delivery-stats: measuring with ${c.n.toLocaleString('en')} deliveries in the log (${label})`);
        for (const [i, row] of rows.entries()) {
          figures[i].push(await timeGets(ctx.baseUrl, {
            path: row.path, headers: { authorization: `Bearer ${token}` }, warmup: WARMUP, requests: REQUESTS, budgetMs: BUDGET_MS,
          }));
        }
      };
      const started = Date.now();
      // The webhook's window: spread over the last 7 days (less a minute), the newest a few seconds old.
      await seedRows(db, { from: 1, to: OWN_WINDOW, webhook: '$1::int', createdAt: `now() - g * $2::float8 * interval '1 second'`, params: [hookId, (WEEK_S - 60) / OWN_WINDOW] });
      // Other webhooks' deliveries up to the small size, within the 29 days the dispatcher keeps.
      await seedRows(db, { from: OWN_WINDOW + 1, to: SMALL, webhook: '3000000 + g % 1000', createdAt: `now() - (g % 2505600) * interval '1 second'` });
      await settle(db);
      log(`delivery-stats: seeded ${SMALL.toLocaleString('en')} in ${Math.round((Date.now() - started) / 1000)} s`);
      await measure('small');

      const grown = Date.now();
      // To the large size: nine in ten other webhooks' (any of the 29 days), one in ten this
      // webhook's older than its window (8 to 29 days old): neither is in the window asked.
      await seedRows(db, {
        from: SMALL + 1, to: LARGE,
        webhook: 'CASE WHEN g % 10 = 0 THEN $1::int ELSE 3000000 + g % 1000 END',
        createdAt: `CASE WHEN g % 10 = 0 THEN now() - interval '8 days' - (g % 1814400) * interval '1 second' ELSE now() - (g % 2505600) * interval '1 second' END`,
        params: [hookId],
      });
      await settle(db);
      log(`delivery-stats: grew to ${LARGE.toLocaleString('en')} in ${Math.round((Date.now() - grown) / 1000)} s`);
      await measure('large');
    } finally {
      // The scenarios after this one share the database: they are measured without these rows
      // (left, they doubled the log the dispatcher works beside, and its latency with it).
      await db.query(`DELETE FROM webhook_deliveries WHERE event_id LIKE 'stats-bench-%'`).then(() => settle(db)).catch((err) => log(`delivery-stats: cleanup failed: ${err.message}`));
      await db.end();
    }
    const measured = rows.map((row, i) => {
      const [small, large] = figures[i];
      return { name: row.name, small, large, ...verdict([small, large], 2) };
    });
    const ratios = measured.map((r) => r.ratio).filter((r) => typeof r === 'number');
    const failed = measured.some((r) => r.small.failed || r.large.failed);
    if (failed) throw new Error(`delivery-stats answered non-2xx: ${JSON.stringify(measured.map((r) => [r.small.statusCodes, r.large.statusCodes]))}`);
    return { stats: { sizes, rows: measured, worstRatio: ratios.length === rows.length ? Math.max(...ratios) : null } };
  },
};
