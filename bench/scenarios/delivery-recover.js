// Recover at scale: 10,000 failed deliveries of one webhook (seeded in the dispatcher's
// tables as a receiver that was down would leave them), then one POST .../recover: the time
// from the call until the receiver has had every one of them, with the webhook-id it had.
const { performance } = require('node:perf_hooks');
const { Client } = require('pg');
const { sleep } = require('../lib/util');
const { registerWebhook, startReceiver } = require('../lib/receiver');

const FAILED = 10_000;
const GRACE_MS = 120_000;

module.exports = {
  name: 'delivery-recover',
  description: `POST .../recover of ${FAILED.toLocaleString('en')} failed deliveries, until each has reached the receiver`,
  targets: [],

  async setup(ctx) {
    const room = await ctx.fixtures.room('delivery-recover');
    const seen = new Set();
    const state = { last: null };
    const receiver = await startReceiver({
      onDelivery: (_envelope, at, _path, headers) => {
        const id = headers && headers['webhook-id'];
        if (id && !seen.has(id)) {
          seen.add(id);
          state.last = at;
        }
      },
    });
    const token = await ctx.fixtures.personalToken();
    const hookId = await registerWebhook(ctx.baseUrl, token, room.room_id, { url: receiver.url(), event: 'room_notification', name: 'recover bench' });
    const db = new Client({ connectionString: ctx.system.databaseUrl });
    await db.connect();
    try {
      await db.query(`
        INSERT INTO webhook_deliveries (id, webhook_id, event, event_id, room_id, status, attempts, last_status, last_error, envelope, created_at, updated_at)
        SELECT md5('bench-recover-' || g)::uuid, $1::int, 'room_notification', 'bench-recover-' || g, $2, 'failed', 3, NULL, 'connection refused',
               '{"event":"room_notification","item":{"message":{"message":"recovered ' || g || '"}},"webhook_id":' || $1::int::text || '}',
               now() - interval '1 hour' + g * interval '1 millisecond', now()
          FROM generate_series(1, $3) AS g`, [hookId, room.room_id, FAILED]);
    } finally {
      await db.end();
    }
    await sleep(1000);
    return { token, room, hookId, receiver, seen, state };
  },

  async run(ctx, { token, room, hookId, receiver, seen, state }) {
    try {
      const started = performance.now();
      const res = await fetch(`${ctx.baseUrl}/v2/room/${room.room_id}/webhook/${hookId}/recover`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ since: new Date(Date.now() - 2 * 3600_000).toISOString() }),
      });
      const answered = performance.now() - started;
      const body = await res.json().catch(() => null);
      if (res.status !== 202 || !body || body.count !== FAILED) throw new Error(`recover answered ${res.status} ${JSON.stringify(body)}`);
      const deadline = Date.now() + GRACE_MS;
      while (Date.now() < deadline && seen.size < FAILED) await sleep(100);
      const drainMs = (state.last ?? performance.now()) - started;
      // In the webhooks table: delivered/s and "within ms" are the recover's drain.
      return {
        webhooks: { perSec: (seen.size * 1000) / drainMs, delivered: seen.size, expected: body.count, withinMs: drainMs, p99: null },
        recover: { answeredMs: answered },
      };
    } finally {
      await receiver.close();
    }
  },
};
