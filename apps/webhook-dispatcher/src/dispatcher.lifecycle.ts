import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_LOGGER, AmqpBroker, AppLogger, GuardedHttpClient } from '@app/common';
import { WebhookRegistrationsChangedV1 } from '@app/contracts';
import { DataSource } from 'typeorm';
import { DISPATCHER_CONFIG, DispatcherConfig } from './config';
import { BatchWriter } from './delivery/batch-writer';
import { DeliveryQueues } from './delivery/delivery-queues';
import { RecordPruner } from './delivery/record-pruner';
import { StalledRetries } from './delivery-log/stalled-retries';
import { AttemptToRecord } from './delivery/delivery.repository';
import { ATTEMPT_RECORDER, BRIDGE_LIMITER } from './dispatcher.tokens';
import { DeliveryWorker } from './delivery/delivery-worker';
import { EventsConsumer } from './events/events.consumer';
import { HealthReporter } from './health/health-reporter';
import { roomEventsQueue } from './events/room-events';
import { Registrations } from './registrations/registrations';
import { OrderedDeliveries } from './ordered/ordered-deliveries';

/** Longest a stopping replica waits for the attempts in hand (unfinished ones are redelivered). */
const DRAIN_MS = 5_000;
/** Longest a stopping replica waits to send its last webhook health report. */
const HEALTH_FLUSH_MS = 2_000;

/**
 * Starts the dispatcher in order (Nest runs the hooks of one module's providers concurrently):
 * the registration index first (events are not consumed before it is loaded), then the
 * delivery worker, then the event consumer. Stops in the opposite order.
 */
@Injectable()
export class DispatcherLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private stopped = false;

  constructor(
    @Inject(DISPATCHER_CONFIG) private readonly config: DispatcherConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
    private readonly broker: AmqpBroker,
    private readonly registrations: Registrations,
    private readonly queues: DeliveryQueues,
    private readonly worker: DeliveryWorker,
    private readonly events: EventsConsumer,
    private readonly http: GuardedHttpClient,
    private readonly db: DataSource,
    @Inject(ATTEMPT_RECORDER) private readonly recorder: BatchWriter<AttemptToRecord>,
    private readonly pruner: RecordPruner,
    private readonly stalled: StalledRetries,
    private readonly health: HealthReporter,
    private readonly ordered: OrderedDeliveries,
    @Inject(BRIDGE_LIMITER) private readonly bridgeLimiter: { close(): void },
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const names = this.broker.names;
    // Subscribed before the first load, so that no change between the two is missed.
    await this.broker.subscribeTransient(
      [WebhookRegistrationsChangedV1.routingKey],
      () => this.registrations.changed(),
      () => this.registrations.changed(),
    );
    await this.registrations.loadFirst();
    if (this.stopped) return;
    this.logger.info({ registrations: this.registrations.size }, 'webhook registrations loaded');

    await this.queues.consume(this.config.WEBHOOK_CONCURRENCY, (job, lease) => this.worker.handle(job, lease));
    await this.broker.consumeEvents(
      roomEventsQueue(names),
      this.config.EVENT_PREFETCH,
      (envelope, message, trace) => this.events.handle(envelope, message, trace),
    );
    this.logger.info({ queue: names.dispatcherEventsQueue, deliveries: names.deliveriesQueue }, 'consuming room events');
    // The ordered queue is declared by the rooms relay that feeds it, and by the leader that consumes it.
    this.ordered.start();
    // Replicas started together do not all try the lock at the same moment.
    this.pruner.start(60_000 + Math.floor(Math.random() * 60_000));
    this.stalled.start(60_000 + Math.floor(Math.random() * 60_000));
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.registrations.stop();
    this.events.stop();
    await this.pruner.stop();
    await this.stalled.stop();
    // Its lanes end the attempts under way (recorded); what waits stays in its rows for the next leader.
    await this.ordered.stop();
    // The attempts in hand still record and post replies: the broker (RPC) and database stay until they end.
    // First attempts made off the events first: they may still park retries through the queues.
    const deadline = Date.now() + DRAIN_MS;
    await this.events.drain(DRAIN_MS);
    await this.queues.close(Math.max(0, deadline - Date.now()));
    await this.recorder.flushed();
    // The last outcomes, if the rooms service answers soon (else they are lost: later attempts tell again).
    await Promise.race([this.health.flush(), new Promise((r) => setTimeout(r, HEALTH_FLUSH_MS).unref())]);
    this.health.stop();
    await this.broker.close();
    this.http.close();
    this.bridgeLimiter.close();
    await this.db.destroy().catch(() => undefined);
  }
}
