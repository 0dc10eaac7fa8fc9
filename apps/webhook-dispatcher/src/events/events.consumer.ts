import { AppLogger, endWithError, HandlerOutcome, traceFields, traceparentIn, Tracing } from '@app/common';
import { Context, SpanKind } from '@opentelemetry/api';
import { EventEnvelope, isOrdered } from '@app/contracts';
import type { ConsumeMessage } from 'amqplib';
import { BatchWriter } from '../delivery/batch-writer';
import { DeliveryJob } from '../delivery/delivery-job';
import { DeliveryQueues } from '../delivery/delivery-queues';
import { DeliveryRepository } from '../delivery/delivery.repository';
import { Registrations } from '../registrations/registrations';
import { planDeliveries } from './delivery-plan';
import { InlineAttempts } from './inline-attempts';
import { unsentJobs } from './unsent-jobs';
import { classify } from './room-events';

/** How long an event whose registrations could not be brought up to date waits before it is requeued. */
const REQUEUE_PAUSE_MS = 1_000;

/**
 * Turns each room event (from the dispatcher's durable queue, explicit acks) into delivery
 * jobs: one per matching registration, recorded as pending. Their first attempts are made
 * here while slots are free (InlineAttempts); the other jobs are published to the
 * deliveries queue. The event is acknowledged only once each job is safe: its attempt has
 * given its slot back, or the broker has confirmed it.
 */
export class EventsConsumer {
  private stopped = false;

  constructor(
    private readonly registrations: Registrations,
    private readonly repository: DeliveryRepository,
    /** Pending rows of many events go in one statement (see BatchWriter); answers the ids it inserted. */
    private readonly pending: BatchWriter<DeliveryJob[], Set<string>>,
    private readonly queues: DeliveryQueues,
    private readonly inline: InlineAttempts,
    private readonly logger: AppLogger,
    /** The `match` span of each event (the index brought up to date, the registrations matched). */
    private readonly tracing: Tracing = Tracing.off('webhook-dispatcher'),
  ) {}

  /** `trace`: the event's consumer span (see AmqpBroker.consumeEvents). */
  async handle(envelope: EventEnvelope, message: ConsumeMessage, trace: Context): Promise<HandlerOutcome> {
    // Left unsettled: the broker hands it to another replica when this one's channel closes
    // (requeued at once, it would come straight back here).
    if (this.stopped) return new Promise<never>(() => undefined);
    // When the event reached this replica, before anything awaited: the deliveries' `created`
    // follows the order of the queue (the delivery log lists newest first by it), not the
    // order in which events that waited for the index were matched.
    const receivedAt = new Date();
    const routingKey = message.fields.routingKey;
    const traceparent = traceparentIn(trace);
    const event = classify(routingKey, envelope);
    if (event.kind === 'unknown') {
      this.logger.warn({ routingKey, reason: event.reason }, 'event dead-lettered');
      return 'dead-letter';
    }
    const payload = event.envelope.payload as { room?: { id?: number } };
    // Debug: a line per event at info cost the dispatcher about a tenth of its CPU under load,
    // and each delivery's outcome is logged (and kept in the delivery log) anyway.
    this.logger.debug({
      eventId: event.envelope.id,
      routingKey,
      webhookEvent: event.webhookEvent,
      roomId: payload.room?.id,
      redelivered: message.fields.redelivered,
    }, 'event received');

    // A child of the consumer span, beside the attempts (their parent is the consumer span).
    const match = this.tracing.span('match', SpanKind.INTERNAL, trace, () => ({ 'webhook.event': event.webhookEvent }));
    // Registered before this event was caused: the index must have it before matching.
    const stamp = event.envelope.registrationsVersion;
    if (typeof stamp === 'number' && !(await this.registrations.upTo(stamp))) {
      endWithError(match, 'registrations not up to date');
      // Not matched against an index that may lack a registration: back to the queue, after
      // a pause (the rooms service is not answering; an immediate requeue would spin).
      await new Promise((r) => setTimeout(r, REQUEUE_PAUSE_MS).unref());
      return 'requeue';
    }

    let jobs: DeliveryJob[];
    try {
      jobs = planDeliveries({
        envelope: event.envelope,
        event: event.webhookEvent,
        // Ordered webhooks are OrderedDeliveries'.
        candidates: (roomId, name) => this.registrations.forEvent(roomId, name, stamp).filter((r) => !isOrdered(r)),
        patterns: this.registrations.patterns.lookup,
        now: receivedAt,
        traceparent,
      });
    } catch (err) {
      endWithError(match, 'malformed event');
      this.logger.warn({ eventId: event.envelope.id, routingKey, err: (err as Error).message }, 'malformed event dead-lettered');
      return 'dead-letter';
    }
    if (match.isRecording()) match.setAttribute('webhook.deliveries', jobs.length);
    match.end();
    if (jobs.length === 0) return 'ack';

    const toSend = await this.unsent(jobs);
    const attempted = this.inline.take(toSend);
    const queued = toSend.slice(attempted.length);
    const attempts = this.inline.run(attempted);
    try {
      await this.queues.publishJobs(queued);
      // An attempt the worker wants made again (its retry could not be parked) goes to the queue.
      await this.queues.publishJobs(await attempts);
    } catch (err) {
      // The broker did not take them all: the event comes back, and makes the same jobs.
      await attempts;
      this.logger.warn({ eventId: event.envelope.id, err: (err as Error).message, ...traceFields(traceparent) }, 'could not publish delivery jobs; requeueing the event');
      return 'requeue';
    }
    this.logger.debug({ eventId: event.envelope.id, attempted: attempted.length, queued: queued.length }, 'deliveries under way');
    return 'ack';
  }

  /**
   * Records the jobs as pending and returns those to publish: all of them, but for an event
   * seen before (redelivered, or published twice by the outbox), only the deliveries not yet
   * attempted, as guard copies (see unsentJobs). Without the database every job is published:
   * the worker records them.
   */
  private async unsent(jobs: DeliveryJob[]): Promise<DeliveryJob[]> {
    try {
      const inserted = await this.pending.add(jobs);
      if (jobs.every((j) => inserted.has(j.deliveryId))) return jobs;
      const waiting = await this.repository.notYetAttempted(jobs.filter((j) => !inserted.has(j.deliveryId)).map((j) => j.deliveryId));
      return unsentJobs(jobs, inserted, waiting);
    } catch (err) {
      this.logger.warn({ eventId: jobs[0].eventId, err: (err as Error).message }, 'could not record pending deliveries');
      return jobs;
    }
  }

  /** Takes no more events (the replica is stopping). */
  stop(): void {
    this.stopped = true;
  }

  /** Lets the first attempts in hand end (up to `ms`). */
  drain(ms: number): Promise<void> {
    return this.inline.drain(ms);
  }
}
