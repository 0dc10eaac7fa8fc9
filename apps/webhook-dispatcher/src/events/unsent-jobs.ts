import type { DeliveryJob } from '../delivery/delivery-job';

/**
 * The jobs of an event to publish (or attempt) now, given which of its deliveries were just
 * recorded as pending (`inserted`: the event is new to them) and which of the others have had
 * no attempt yet (`waiting`). A delivery seen before (the event redelivered after a crash or a
 * broker outage, or published twice by the outbox) may still have its first job in the
 * queue: its job here is sent as a guard copy, which the worker makes only when no attempt was
 * recorded by then, so that a first copy's 2xx is not followed by a second request.
 */
export function unsentJobs(jobs: readonly DeliveryJob[], inserted: ReadonlySet<string>, waiting: ReadonlySet<string>): DeliveryJob[] {
  return jobs.flatMap((j) => {
    if (inserted.has(j.deliveryId)) return [j];
    return waiting.has(j.deliveryId) ? [{ ...j, guard: true }] : [];
  });
}
