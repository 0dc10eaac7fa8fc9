import { deliveryJobSchema } from '../delivery/delivery-job';
import type { JobRow } from './delivery-log.repository';
import { inBatches, jobOf, oldestFirst, recoveryJob, redeliverJobFor, redeliverRefusal, redeliveryJob } from './resend-jobs';

const row = (over: Partial<JobRow> = {}): JobRow => ({
  id: '6f1c2a4e-3b5d-5e7f-8a9b-0c1d2e3f4a5b', webhook_id: 7, event: 'room_message', event_id: 'event-1', room_id: 3,
  envelope: '{"event":"room_message","item":{},"webhook_id":7}', created_at: new Date('2026-01-01T00:00:00Z'),
  attempts: 7, actor_user_id: 5, reply_depth: 2, traceparent: null, schedule_offset: null, registrations_version: null, ...over,
});

describe('sending a recorded delivery again', () => {
  it('redeliver: the same id and envelope, the next attempt number, one attempt only, to the webhook as it is now', () => {
    const job = redeliveryJob(row());
    expect(job).toEqual({
      deliveryId: '6f1c2a4e-3b5d-5e7f-8a9b-0c1d2e3f4a5b', webhookId: 7, event: 'room_message', eventId: 'event-1', roomId: 3,
      attempt: 8, envelopeBody: '{"event":"room_message","item":{},"webhook_id":7}', createdAt: '2026-01-01T00:00:00.000Z',
      actorUserId: 5, registrationsVersion: null, replyDepth: 2, redelivery: true,
    });
    // What the deliveries queue's consumer reads back.
    expect(deliveryJobSchema.parse(JSON.parse(JSON.stringify(job)))).toEqual(job);
    // A delivery never attempted yet (still pending) gets its first attempt.
    expect(redeliveryJob(row({ attempts: 0 })).attempt).toBe(1);
  });

  it('recover: attempts numbered on, the retry schedule counted from them', () => {
    const job = recoveryJob(row());
    expect(job).toMatchObject({ attempt: 8, scheduleOffset: 7 });
    expect(job.redelivery).toBeUndefined();
    expect(deliveryJobSchema.parse(JSON.parse(JSON.stringify(job)))).toEqual(job);
  });

  it('redeliver of a delivery still in its retries makes its next attempt now, as one of them', () => {
    for (const status of ['pending', 'retrying']) {
      const job = redeliverJobFor({ ...row({ attempts: 1 }), status });
      // The same number as the retry that waits: whichever comes second is dropped as made.
      expect(job).toMatchObject({ attempt: 2, guard: true });
      expect(job.redelivery).toBeUndefined();
      expect(deliveryJobSchema.parse(JSON.parse(JSON.stringify(job)))).toEqual(job);
    }
    // Ended: one attempt more, not retried.
    for (const status of ['delivered', 'failed', 'cancelled']) expect(redeliverJobFor({ ...row(), status })).toEqual(redeliveryJob(row()));
  });

  it('refuses to redeliver an ordered delivery still in its lane (it would overtake the ones before it), saying when it goes', () => {
    const due = new Date('2026-11-27T10:00:00Z');
    expect(redeliverRefusal({ status: 'retrying', ordered: true, next_attempt_at: due }))
      .toBe('is retrying in the lane of an ordered webhook, which sends a room\'s deliveries one at a time in order: '
        + 'its next attempt is due at 2026-11-27T10:00:00.000Z. It can be redelivered once it has ended.');
    expect(redeliverRefusal({ status: 'pending', ordered: true, next_attempt_at: null })).toMatch(/^is pending .*once the deliveries before it in its lane have ended/);
    // Ended, or not ordered: redelivered.
    for (const status of ['delivered', 'failed', 'cancelled']) expect(redeliverRefusal({ status, ordered: true })).toBeNull();
    expect(redeliverRefusal({ status: 'retrying', ordered: false, next_attempt_at: due })).toBeNull();
  });

  it('redeliver of a recovered delivery still in its retries keeps the schedule the recover started again', () => {
    // Recovered after 3 attempts, its attempt 4 failed: attempt 5 is the second of the new schedule, not past the first one.
    const job = redeliverJobFor({ ...row({ attempts: 4, schedule_offset: 3 }), status: 'retrying' });
    expect(job).toMatchObject({ attempt: 5, guard: true, scheduleOffset: 3 });
    expect(deliveryJobSchema.parse(JSON.parse(JSON.stringify(job)))).toEqual(job);
    // Never recovered: the schedule from attempt 1, as before.
    expect(redeliverJobFor({ ...row({ attempts: 1 }), status: 'retrying' })).not.toHaveProperty('scheduleOffset');
    // Recover sets the offset to the attempts it has now, whatever an earlier recover stored.
    expect(recoveryJob(row({ attempts: 9, schedule_offset: 3 }))).toMatchObject({ attempt: 10, scheduleOffset: 9 });
  });

  it('a delivery rebuilt before its first attempt keeps its event\'s stamp (to the webhook as it was); a later attempt, none', () => {
    // Written pending, never attempted (a lane rebuilt by the replica taking the lead): the
    // first attempt goes to the webhook as it was at the event, though it was deleted since.
    const first = jobOf(row({ attempts: 0, registrations_version: '42' }));
    expect(first).toMatchObject({ attempt: 1, registrationsVersion: 42 });
    expect(deliveryJobSchema.parse(JSON.parse(JSON.stringify(first)))).toEqual(first);
    // A retry goes to the webhook as it is now (deleting it cancels its retries).
    expect(jobOf(row({ attempts: 1, registrations_version: '42' }))).toMatchObject({ attempt: 2, registrationsVersion: null });
    // An unstamped event, or a row from before the stamp was kept: as it is now.
    expect(jobOf(row({ attempts: 0, registrations_version: null })).registrationsVersion).toBeNull();
  });

  it('redeliver and recover go to the webhook as it is now, even for a delivery never attempted', () => {
    const never = row({ attempts: 0, registrations_version: '42' });
    expect(redeliveryJob(never)).toMatchObject({ attempt: 1, registrationsVersion: null, redelivery: true });
    expect(recoveryJob(never)).toMatchObject({ attempt: 1, registrationsVersion: null });
    for (const status of ['pending', 'retrying', 'failed']) expect(redeliverJobFor({ ...never, status }).registrationsVersion).toBeNull();
  });

  it('keeps the trace of the event that caused it, when the row has one', () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00';
    const job = recoveryJob(row({ traceparent }));
    expect(job.traceparent).toBe(traceparent);
    expect(deliveryJobSchema.parse(JSON.parse(JSON.stringify(job)))).toEqual(job);
    expect(recoveryJob(row())).not.toHaveProperty('traceparent');
  });

  it('a bridge\'s split message goes on from the first post not accepted; a redeliver sends it whole', () => {
    expect(jobOf(row({ parts_done: 2 })).partsDone).toBe(2);
    expect(recoveryJob(row({ parts_done: 2 })).partsDone).toBe(2);
    expect(jobOf(row({ parts_done: null }))).not.toHaveProperty('partsDone');
    expect(redeliveryJob(row({ parts_done: 2 }))).not.toHaveProperty('partsDone');
  });

  it('queues a recover oldest first, ties by id, in batches', () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    const claimed = [
      { id: 'c', created_at: at(3), attempts: 3 }, { id: 'b', created_at: at(1), attempts: 3 }, { id: 'a', created_at: at(1), attempts: 1 },
    ];
    expect(oldestFirst(claimed).map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect(inBatches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(inBatches([], 500)).toEqual([]);
  });
});
