import type { DeliveryJob } from '../delivery/delivery-job';
import { LanePacer, LaneStep, OrderedLanes } from './ordered-lanes';

const job = (webhookId: number, roomId: number | null, n: number, attempt = 1): DeliveryJob => ({
  deliveryId: `00000000-0000-4000-8000-${String(webhookId * 1_000_000 + (roomId ?? 0) * 1_000 + n).padStart(12, '0')}`,
  webhookId, event: 'room_message', eventId: `e${n}`, roomId, attempt, envelopeBody: `{"n":${n}}`,
  createdAt: '2026-11-24T00:00:00.000Z', actorUserId: null, registrationsVersion: null, replyDepth: 1,
});
const nOf = (j: DeliveryJob) => JSON.parse(j.envelopeBody).n as number;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Lanes whose attempts follow `script` (by webhook, event number and attempt), recording every attempt made. */
function lanesWith(script: (j: DeliveryJob) => LaneStep | Promise<LaneStep> = () => ({ next: null, retryInMs: 0 })) {
  const made: Array<{ webhook: number; room: number | null; n: number; attempt: number; at: number }> = [];
  const started = Date.now();
  const lanes = new OrderedLanes(async (j) => {
    made.push({ webhook: j.webhookId, room: j.roomId, n: nOf(j), attempt: j.attempt, at: Date.now() - started });
    await pause(2);
    return script(j);
  });
  return { lanes, made, idle: async () => { while (lanes.size > 0) await pause(5); } };
}

describe('OrderedLanes', () => {
  it('makes the deliveries of one webhook and room one at a time, in the order they were added', async () => {
    let inFlight = 0;
    let most = 0;
    const { lanes, made, idle } = lanesWith(async () => {
      most = Math.max(most, ++inFlight);
      await pause(3);
      inFlight--;
      return { next: null, retryInMs: 0 };
    });
    for (let n = 1; n <= 10; n++) lanes.add(job(1, 7, n));
    await idle();
    expect(made.map((m) => m.n)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(most).toBe(1);
  });

  it('holds back only the lane of a delivery being retried: other rooms and other webhooks go on', async () => {
    // Webhook 1 in room 7: event 1 fails twice (retries 60 ms apart), then succeeds.
    const { lanes, made, idle } = lanesWith((j) =>
      j.webhookId === 1 && j.roomId === 7 && nOf(j) === 1 && j.attempt < 3 ? { next: { ...j, attempt: j.attempt + 1 }, retryInMs: 60 } : { next: null, retryInMs: 0 });
    lanes.add(job(1, 7, 1));
    lanes.add(job(1, 7, 2));
    lanes.add(job(1, 8, 1));
    lanes.add(job(2, 7, 1));
    await idle();
    const lane17 = made.filter((m) => m.webhook === 1 && m.room === 7);
    expect(lane17.map((m) => [m.n, m.attempt])).toEqual([[1, 1], [1, 2], [1, 3], [2, 1]]);
    // The retry waited its delay; the second delivery only after the first ended.
    expect(lane17[1].at - lane17[0].at).toBeGreaterThanOrEqual(55);
    // The other lanes were not held: done before the first retry.
    for (const other of made.filter((m) => !(m.webhook === 1 && m.room === 7))) expect(other.at).toBeLessThan(lane17[1].at);
  });

  it('goes on with the next delivery once one has failed for good', async () => {
    const { lanes, made, idle } = lanesWith((j) => (nOf(j) === 1 && j.attempt < 2 ? { next: { ...j, attempt: 2 }, retryInMs: 5 } : { next: null, retryInMs: 0 }));
    lanes.add(job(1, 7, 1));
    lanes.add(job(1, 7, 2));
    await idle();
    expect(made.map((m) => [m.n, m.attempt])).toEqual([[1, 1], [1, 2], [2, 1]]);
  });

  it('adds a delivery once, and waits until a retry is due for one added with its due time', async () => {
    const { lanes, made, idle } = lanesWith();
    expect(lanes.add(job(1, 7, 1), Date.now() + 50)).toBe(true);
    expect(lanes.add(job(1, 7, 1))).toBe(false);
    lanes.add(job(1, 7, 2));
    expect(lanes.has(job(1, 7, 2).deliveryId)).toBe(true);
    await idle();
    expect(made.map((m) => m.n)).toEqual([1, 2]);
    expect(made[0].at).toBeGreaterThanOrEqual(45);
  });

  it('makes the next attempt of a lane only once the last one is recorded', async () => {
    // A replica killed -9 after sending delivery 2 with delivery 1's 2xx unrecorded would leave
    // delivery 1 pending, and the next leader would send it again after delivery 2.
    const events: string[] = [];
    const records: Array<() => void> = [];
    const lanes = new OrderedLanes(async (j) => {
      events.push(`attempt ${nOf(j)}`);
      const recorded = new Promise<void>((resolve) => records.push(() => {
        events.push(`recorded ${nOf(j)}`);
        resolve();
      }));
      return { next: null, retryInMs: 0, recorded };
    });
    for (let n = 1; n <= 2; n++) lanes.add(job(1, 7, n));
    lanes.add(job(2, 7, 9));
    while (records.length < 2) await pause(5);
    // The other lane was not held; this one waits for its record.
    expect(events).toEqual(['attempt 1', 'attempt 9']);
    records[0]();
    while (records.length < 3) await pause(5);
    expect(events).toEqual(['attempt 1', 'attempt 9', 'recorded 1', 'attempt 2']);
    records[1]();
    records[2]();
    while (lanes.size > 0) await pause(5);
  });

  it('makes a delivery added while the lane waits for its last record', async () => {
    const made: number[] = [];
    const lanes = new OrderedLanes(async (j) => {
      made.push(nOf(j));
      return { next: null, retryInMs: 0, recorded: pause(40).then(() => undefined) };
    });
    lanes.add(job(1, 7, 1));
    await pause(10);
    lanes.add(job(1, 7, 2));
    while (lanes.size > 0) await pause(5);
    expect(made).toEqual([1, 2]);
  });

  it('tries an attempt that threw (not an outcome) again, in its place', async () => {
    let fails = 1;
    const faults: unknown[] = [];
    const attempts: number[] = [];
    const lanes = new OrderedLanes(async (j) => {
      attempts.push(nOf(j));
      if (nOf(j) === 1 && fails-- > 0) throw new Error('database down');
      return { next: null, retryInMs: 0 };
    }, (err) => faults.push(err));
    lanes.add(job(1, 7, 1));
    lanes.add(job(1, 7, 2));
    while (lanes.size > 0) await pause(20);
    expect(attempts).toEqual([1, 1, 2]);
    expect(faults).toHaveLength(1);
  });

  it('stops: no attempt after, the one under way ends, waiting retries are dropped', async () => {
    const { lanes, made } = lanesWith((j) => ({ next: { ...j, attempt: j.attempt + 1 }, retryInMs: 10_000 }));
    lanes.add(job(1, 7, 1));
    lanes.add(job(1, 7, 2));
    await pause(20);
    const stopping = Date.now();
    await lanes.stop();
    expect(Date.now() - stopping).toBeLessThan(1_000);
    expect(made).toHaveLength(1);
    expect(lanes.size).toBe(0);
    expect(lanes.add(job(1, 7, 3))).toBe(false);
  });

  describe('with a pacer (a bridge\'s posting limit)', () => {
    /** One post every `everyMs`, and as many deliveries in a post as `perPost`. */
    const pacer = (everyMs: number, perPost: number): LanePacer & { reserved: number } => {
      let nextAt = 0;
      return {
        reserved: 0,
        async reserve() {
          const now = Date.now();
          if (now < nextAt) return { waitMs: nextAt - now, paced: false };
          nextAt = now + everyMs;
          this.reserved++;
          return { waitMs: 0, paced: true };
        },
        coalesce: (waiting) => Math.min(perPost, waiting.length),
      };
    };

    it('waits for the budget on its own timer, then posts what piled up together, in order, each delivery once', async () => {
      const posts: number[][] = [];
      const paced: boolean[] = [];
      const lanes = new OrderedLanes(async (j, companions, p) => {
        posts.push([nOf(j), ...companions.map(nOf)]);
        paced.push(p);
        await pause(2);
        return { next: null, retryInMs: 0, companions: companions.map(() => null) };
      }, undefined, pacer(100, 4));
      for (let n = 1; n <= 9; n++) lanes.add(job(1, 7, n));
      while (lanes.size > 0) await pause(5);
      // The first alone (no wait yet), then what waited, at most 4 a post.
      expect(posts).toEqual([[1], [2, 3, 4, 5], [6, 7, 8, 9]]);
      expect(paced).toEqual([true, true, true]);
    });

    it('keeps coalesced deliveries that are retried in their place, with their next attempt', async () => {
      const made: Array<[number, number]> = [];
      let failures = 1;
      const lanes = new OrderedLanes(async (j, companions) => {
        for (const d of [j, ...companions]) made.push([nOf(d), d.attempt]);
        const retry = nOf(j) === 2 && failures-- > 0;
        return {
          next: retry ? { ...j, attempt: j.attempt + 1 } : null, retryInMs: 20,
          companions: companions.map((c) => (retry ? { ...c, attempt: c.attempt + 1 } : null)),
        };
      }, undefined, pacer(30, 2));
      for (let n = 1; n <= 3; n++) lanes.add(job(1, 7, n));
      while (lanes.size > 0) await pause(5);
      expect(made).toEqual([[1, 1], [2, 1], [3, 1], [2, 2], [3, 2]]);
    });
  });
});
