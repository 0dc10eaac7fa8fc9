import { HandlerOutcome } from '@app/common';
import type { DeliveryJob } from '../delivery/delivery-job';
import type { JobLease } from '../delivery/delivery-queues';
import { InlineAttempts } from './inline-attempts';

const job = (n: number) => ({ deliveryId: `d${n}` }) as DeliveryJob;

/** An attempt the test ends by hand: release the slot, and/or finish with an outcome. */
interface Pending { job: DeliveryJob; lease: JobLease; finish(outcome: HandlerOutcome): void; fail(err: Error): void }

function controlled() {
  const pending: Pending[] = [];
  const attempt = (j: DeliveryJob, lease: JobLease) => new Promise<HandlerOutcome>((resolve, reject) => {
    pending.push({ job: j, lease, finish: resolve, fail: reject });
  });
  return { pending, attempt };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('InlineAttempts', () => {
  it('takes jobs while slots are free, in order, and leaves the rest to the queue', () => {
    const inline = new InlineAttempts(controlled().attempt, 3);
    expect(inline.take([job(1), job(2)])).toEqual([job(1), job(2)]);
    expect(inline.take([job(3), job(4)])).toEqual([job(3)]);
    expect(inline.take([job(5)])).toEqual([]);
  });

  it('settles once every attempt has given its slot back, before the attempts end', async () => {
    const { pending, attempt } = controlled();
    const inline = new InlineAttempts(attempt, 2);
    let settled: DeliveryJob[] | null = null;
    void inline.run(inline.take([job(1), job(2)])).then((r) => { settled = r; });
    await tick();
    pending[0].lease.release();
    await tick();
    expect(settled).toBeNull();
    pending[1].lease.release();
    await tick();
    expect(settled).toEqual([]);
    // The slots are free again although both attempts are still recording.
    expect(inline.take([job(3), job(4), job(5)])).toEqual([job(3), job(4)]);
  });

  it('frees a slot once, whether released, finished or both', async () => {
    const { pending, attempt } = controlled();
    const inline = new InlineAttempts(attempt, 1);
    const run = inline.run(inline.take([job(1)]));
    await tick();
    pending[0].lease.release();
    pending[0].finish('ack');
    await run;
    expect(inline.take([job(2), job(3)])).toEqual([job(2)]);
  });

  it('hands back for the queue a job whose attempt is to be made again, or whose handler threw', async () => {
    const { pending, attempt } = controlled();
    const inline = new InlineAttempts(attempt, 3);
    const run = inline.run(inline.take([job(1), job(2), job(3)]));
    await tick();
    pending[0].finish('ack');
    pending[1].finish('requeue');
    pending[2].fail(new Error('boom'));
    expect(await run).toEqual([job(2), job(3)]);
    expect(inline.take([job(4), job(5), job(6), job(7)])).toHaveLength(3);
  });

  it('drains: waits for the attempts in hand, at most the time given', async () => {
    const { pending, attempt } = controlled();
    const inline = new InlineAttempts(attempt, 2);
    void inline.run(inline.take([job(1)]));
    await tick();
    let drained = false;
    const draining = inline.drain(5_000).then(() => { drained = true; });
    await tick();
    expect(drained).toBe(false);
    pending[0].finish('ack');
    await draining;
    expect(drained).toBe(true);

    void inline.run(inline.take([job(2)]));
    await tick();
    const started = Date.now();
    await inline.drain(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});
