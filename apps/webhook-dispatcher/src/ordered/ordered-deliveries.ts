import type { ConsumeMessage } from 'amqplib';
import { AppLogger, HandlerOutcome, traceparentIn } from '@app/common';
import { Context, ROOT_CONTEXT } from '@opentelemetry/api';
import { EventEnvelope, isOrdered } from '@app/contracts';
import { DataSource, QueryRunner } from 'typeorm';
import { BatchWriter } from '../delivery/batch-writer';
import { DeliveryJob } from '../delivery/delivery-job';
import { DeliveryRepository } from '../delivery/delivery.repository';
import { jobOf } from '../delivery-log/resend-jobs';
import { planDeliveries } from '../events/delivery-plan';
import { classify } from '../events/room-events';
import { Registrations } from '../registrations/registrations';
import { OrderedLanes } from './ordered-lanes';

/** The advisory lock held by the replica that makes the ordered deliveries (a fixed key of the dispatcher's own). */
const LEAD_LOCK_KEY = 7_411_905;
/** How often a replica tries for the lead, and the leader checks it still holds it. */
const LEAD_POLL_MS = 1_000;
/** Pause before an event goes back to its queue (the database or the rooms service is not answering). */
const REQUEUE_PAUSE_MS = 1_000;
/** Ordered events handled at once by the leader (written in batches; joined to the lanes in order). */
export const ORDERED_PREFETCH = 100;

/** Lane positions an event reserves (one per ordered delivery it makes: far more than a room's webhooks). */
const POSITIONS_PER_EVENT = 10_000;

/** Where the ordered events come from: a queue consumed only while this replica leads. */
export interface OrderedEventSource {
  consume(handler: (envelope: EventEnvelope, message: ConsumeMessage, trace: Context) => Promise<HandlerOutcome>): Promise<{ stop(): Promise<void> }>;
}

/**
 * The deliveries of webhooks registered with `"delivery": "ordered"`. One replica at a time
 * makes them all (it holds a Postgres advisory lock; the lock goes with its connection when
 * it dies, and another replica takes over within a second): it consumes the room events a
 * second time, from a queue of their own, in the order they reached the exchange, and adds
 * each event's ordered deliveries to their lanes (OrderedLanes) in that order, once their
 * `pending` rows are written. The events consumer leaves those webhooks out.
 *
 * The lanes live in the leader's memory; the rows are the truth. Taking the lead, a replica
 * first rebuilds the lanes from the deliveries not yet ended (by lane position, retries due
 * when their rows say), then consumes: events still in the queue were not acknowledged, so
 * their deliveries are either among the rows (added once) or not yet written.
 */
export class OrderedDeliveries {
  private lock: QueryRunner | null = null;
  private consumer: { stop(): Promise<void> } | null = null;
  private timer?: NodeJS.Timeout;
  private stopped = true;
  private polling?: Promise<void>;
  /** Events are added to the lanes in the order they arrived, whatever order their rows are written in. */
  private turn: Promise<void> = Promise.resolve();
  private lastPosition = 0;

  constructor(
    private readonly db: DataSource,
    private readonly registrations: Registrations,
    private readonly repository: DeliveryRepository,
    private readonly pending: BatchWriter<DeliveryJob[], Set<string>>,
    private readonly lanes: () => OrderedLanes,
    private readonly source: OrderedEventSource,
    private readonly logger: AppLogger,
  ) {}

  private current: OrderedLanes | null = null;

  /** Whether this replica makes the ordered deliveries now. */
  get leading(): boolean {
    return this.current !== null;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.polling;
    await this.resign();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.polling = this.poll().finally(() => {
        this.polling = undefined;
        this.schedule(LEAD_POLL_MS);
      });
    }, ms);
    this.timer.unref();
  }

  /** Takes the lead when it is free; lets it go when the lock's connection is lost. */
  private async poll(): Promise<void> {
    if (this.lock) {
      try {
        await this.lock.query('SELECT 1');
      } catch (err) {
        this.logger.warn({ err: (err as Error).message }, 'lost the lead of the ordered deliveries (database connection)');
        await this.resign();
      }
      return;
    }
    let runner: QueryRunner | null = null;
    try {
      runner = this.db.createQueryRunner();
      await runner.connect();
      const [{ locked }] = await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [LEAD_LOCK_KEY]);
      if (!locked || this.stopped) {
        if (locked) await runner.query('SELECT pg_advisory_unlock($1)', [LEAD_LOCK_KEY]).catch(() => undefined);
        await runner.release();
        return;
      }
      this.lock = runner;
      await this.lead();
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'could not take the lead of the ordered deliveries; will try again');
      if (this.lock) await this.resign();
      else await runner?.release().catch(() => undefined);
    }
  }

  private async lead(): Promise<void> {
    const lanes = this.lanes();
    this.current = lanes;
    const open = await this.repository.openLaneDeliveries();
    for (const row of open) {
      this.lastPosition = Math.max(this.lastPosition, Number(row.lane_position));
      lanes.add({ ...jobOf(row), lanePosition: Number(row.lane_position) }, row.next_attempt_at?.getTime() ?? 0);
    }
    this.consumer = await this.source.consume((envelope, message, trace) => this.handle(envelope, message, trace));
    this.logger.info({ deliveries: open.length }, 'making the ordered deliveries (their lanes rebuilt)');
  }

  private async resign(): Promise<void> {
    const consumer = this.consumer;
    const lanes = this.current;
    const lock = this.lock;
    this.consumer = null;
    this.current = null;
    this.lock = null;
    await consumer?.stop();
    await lanes?.stop();
    if (lock) {
      await lock.query('SELECT pg_advisory_unlock($1)', [LEAD_LOCK_KEY]).catch(() => undefined);
      await lock.release().catch(() => undefined);
    }
  }

  /**
   * One event from the ordered queue: its ordered deliveries written `pending` with their lane
   * positions, then added to their lanes (after every event that arrived before it), then
   * the event is acknowledged.
   */
  async handle(envelope: EventEnvelope, message: ConsumeMessage, trace: Context = ROOT_CONTEXT): Promise<HandlerOutcome> {
    // Taken at once, in arrival order (amqplib hands messages over in order): the event's turn
    // to join the lanes, and its lane positions (from the clock, so that they increase across
    // leaders too, and past any this replica has seen).
    const before = this.turn;
    let done!: () => void;
    this.turn = new Promise<void>((resolve) => (done = resolve));
    this.lastPosition = Math.max(this.lastPosition + POSITIONS_PER_EVENT, Date.now() * 1_000);
    try {
      return await this.place(envelope, message, before, this.lastPosition, new Date(), traceparentIn(trace));
    } finally {
      done();
    }
  }

  private async place(
    envelope: EventEnvelope, message: ConsumeMessage, before: Promise<void>, position: number, receivedAt: Date, traceparent?: string,
  ): Promise<HandlerOutcome> {
    const lanes = this.current;
    // The relay sends these through the default exchange, with the event's routing key as a header.
    const routingKey = message.properties.headers?.['x-routing-key'];
    const event = classify(typeof routingKey === 'string' ? routingKey : message.fields.routingKey, envelope);
    // Unknown events are the events consumer's to dead-letter and report.
    if (event.kind === 'unknown' || !lanes) return 'ack';
    const stamp = event.envelope.registrationsVersion;
    if (typeof stamp === 'number' && !(await this.registrations.upTo(stamp))) return this.later();
    let jobs: DeliveryJob[];
    try {
      jobs = planDeliveries({
        envelope: event.envelope,
        event: event.webhookEvent,
        candidates: (roomId, name) => this.registrations.forEvent(roomId, name, stamp).filter(isOrdered),
        patterns: this.registrations.patterns.lookup,
        now: receivedAt,
        traceparent,
      });
    } catch {
      return 'ack';
    }
    if (jobs.length === 0) return 'ack';
    jobs = jobs.slice(0, POSITIONS_PER_EVENT).map((job, i) => ({ ...job, lanePosition: position + i }));
    let inserted: Set<string>;
    try {
      inserted = await this.pending.add(jobs);
    } catch (err) {
      this.logger.warn({ eventId: event.envelope.id, err: (err as Error).message }, 'could not record ordered deliveries; requeueing the event');
      await before;
      return this.later();
    }
    // A redelivered event: its deliveries already written are in the lanes (rebuilt from the rows) or ended.
    const open = jobs.filter((j) => !inserted.has(j.deliveryId) && !lanes.has(j.deliveryId));
    const stillOpen = open.length > 0 ? await this.repository.notYetAttempted(open.map((j) => j.deliveryId)).catch(() => new Set<string>()) : new Set<string>();
    await before;
    for (const job of jobs) if (inserted.has(job.deliveryId) || stillOpen.has(job.deliveryId)) lanes.add(job);
    return 'ack';
  }

  private async later(): Promise<HandlerOutcome> {
    await new Promise((r) => setTimeout(r, REQUEUE_PAUSE_MS).unref());
    return 'requeue';
  }
}
