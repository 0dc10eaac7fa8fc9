// Webhook registrations, 100 to 10k (half with a pattern), spread over the seeded rooms: what
// one event costs the dispatcher (measured from outside: a message to a room with one
// matching webhook, until a receiver here has its delivery), what bringing the index up to
// date after a change of one registration costs, and the dispatcher's memory.
const { performance } = require('node:perf_hooks');
const { registerWebhook, startReceiver } = require('../../lib/receiver');
const { memoryOf } = require('../../lib/processes');
const { sleep } = require('../../lib/util');
const { seedWebhooks } = require('../seed');
const { timeEach } = require('../measure');
const { growRooms } = require('./rooms');

const DELIVERY_TIMEOUT_MS = 10_000;

/** Resolves with the arrival time of the delivery whose message text or path carries `marker` (null after timeoutMs). */
function arrivals() {
  const seen = new Map();
  const waiting = new Map();
  return {
    arrived(marker, at) {
      if (seen.has(marker)) return;
      seen.set(marker, at);
      waiting.get(marker)?.(at);
    },
    wait(marker, timeoutMs) {
      if (seen.has(marker)) return Promise.resolve(seen.get(marker));
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), timeoutMs);
        waiting.set(marker, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
  };
}

/**
 * A message to the bench's room, timed from the POST's answer until its delivery to the
 * probe webhook reaches the receiver.
 */
async function sendProbe(ctx, state) {
  const marker = `${ctx.runId}-${++state.sent}`;
  const res = await fetch(`${ctx.baseUrl}/v2/room/${state.room.room_id}/message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.personalToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ message: `scale-probe ${marker}` }),
    signal: AbortSignal.timeout(30_000),
  });
  const answered = performance.now();
  await res.arrayBuffer();
  if (res.status !== 201) return { ok: false, status: res.status };
  const at = await state.seen.wait(marker, DELIVERY_TIMEOUT_MS);
  return at === null ? { ok: false, status: 'not delivered' } : { ok: true, ms: at - answered };
}

/** The dispatcher's heap in use (MB), from its /metrics (`nodejs_heap_size_used_bytes`); null when it cannot be read. */
async function heapUsedMB(metricsUrl) {
  if (!metricsUrl) return null;
  try {
    const text = await (await fetch(`${metricsUrl}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
    const m = text.match(/^nodejs_heap_size_used_bytes(?:\{[^}]*\})?\s+([0-9.eE+]+)/m);
    return m ? Number(m[1]) / 1_048_576 : null;
  } catch {
    return null;
  }
}

module.exports = {
  name: 'registrations',
  title: 'Webhook registrations',
  unit: 'registrations',
  sizes: [100, 1_000, 10_000],
  tables: ['webhooks'],

  async setup(ctx) {
    // The seeded webhooks go to seeded rooms, never to a room the bench sends to.
    await growRooms(ctx, 100);
    const room = await ctx.fixtures.room('scale-hooks');
    const seen = arrivals();
    const receiver = await startReceiver({
      onDelivery: (envelope, at, path) => {
        const text = envelope?.item?.message?.message;
        const marker = path === '/probe' ? typeof text === 'string' && (text.match(/scale-probe (\S+)/) || [])[1] : path;
        if (marker) seen.arrived(marker, at);
      },
    });
    ctx.cleanups.push(() => receiver.close());
    await registerWebhook(ctx.baseUrl, ctx.personalToken, room.room_id, {
      url: receiver.url('/probe'), event: 'room_message', pattern: '^scale-probe\\b', name: 'scale probe',
    });
    await sleep(1500); // every dispatcher has the registration within a second
    return { room, receiver, seen, seeded: 0, sent: 0 };
  },

  /**
   * Seeds webhooks until there are `size`: first all but one, which the dispatcher loads
   * before it matches a probe message (its event is stamped after them); then, alone, a
   * room_topic_change webhook of the bench's room to this size's path on the receiver. The
   * first row's event is stamped with that one change: the dispatcher brings its index of
   * `size` registrations up to date with one registration, as after any change made
   * through the API, rather than with the whole step's seed.
   */
  async grow(ctx, state, size) {
    const { rows: [c] } = await ctx.db.query('SELECT count(*)::int AS n FROM webhooks');
    const need = Math.max(0, size - c.n - 1);
    const { rows } = await ctx.db.query(`SELECT id FROM rooms WHERE name LIKE 'scale-room-%' ORDER BY id`);
    const seed = { roomIds: rows.map((r) => r.id), ownerId: await ctx.fixtures.owner() };
    await seedWebhooks(ctx.db, { from: state.seeded + 1, to: state.seeded + need, ...seed });
    state.seeded += need;
    const caughtUp = await sendProbe(ctx, state);
    if (!caughtUp.ok) throw new Error(`the dispatcher did not deliver a probe after the seeding (${caughtUp.status})`);
    // An empty range: only the extra webhook, in a transaction (and a registrations' version) of its own.
    await seedWebhooks(ctx.db, {
      from: 1, to: 0, ...seed,
      extra: [{ roomId: state.room.room_id, event: 'room_topic_change', url: state.receiver.url(`/reload-${size}`), name: `scale reload ${size}` }],
    });
    return need + 1;
  },

  async rows(ctx, state, size) {
    const roomId = state.room.room_id;
    const probe = () => sendProbe(ctx, state);
    const dispatcher = ctx.system.services.find((s) => s.name === 'webhook-dispatcher');
    return [
      {
        // No note: flat by design. A change makes every dispatcher load only the changes since its
        // index's version (ListRegistrationChangesV1, read through indexes on the versions) before it
        // matches the next event; the whole index is loaded again hourly, by a timer, not by an event.
        name: 'first event after the change, 1 sample',
        measure: async () => {
          const res = await ctx.fixtures.api('POST', 'rooms/topic', { auth_token: ctx.adminToken, room_id: roomId, topic: `scale ${size}` });
          const answered = performance.now();
          if (res.status !== 'ok') return { n: 0, expected: 1, failed: 1, error: true };
          const at = await state.seen.wait(`/reload-${size}`, 60_000);
          return at === null ? { n: 0, expected: 1, failed: 1, statusCodes: { 'not delivered': 1 }, error: true }
            : { n: 1, expected: 1, p50: at - answered, p99: at - answered, max: at - answered };
        },
      },
      {
        name: 'message -> webhook delivery',
        measure: async () => {
          for (let i = 0; i < ctx.settings.warmup; i++) await probe();
          return timeEach(ctx.settings.requests, ctx.settings.budgetMs, probe);
        },
      },
      {
        name: 'dispatcher heap used',
        unit: 'MB',
        note: 'the index holds every registration in memory (by design); the figure is the heap in use, GC timing included',
        measure: async () => {
          const mb = await heapUsedMB(ctx.metricsUrl('webhook-dispatcher'));
          return mb === null ? null : { n: 1, p50: mb, p99: mb };
        },
      },
      {
        name: 'dispatcher RSS',
        unit: 'MB',
        note: 'the index holds every registration in memory (by design)',
        measure: async () => {
          const { rssMB } = memoryOf(dispatcher.pid);
          return rssMB === null ? null : { n: 1, p50: rssMB, p99: rssMB };
        },
      },
    ];
  },
};
