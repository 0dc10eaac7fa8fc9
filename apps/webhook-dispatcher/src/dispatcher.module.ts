import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import {
  APP_LOGGER, AmqpBroker, AppLogger, orderedEventsQueue, CommandErrorPassthrough, GuardedHttpClient, Observability, OBSERVABILITY, RpcClient,
} from '@app/common';
import { brokerNames, ListRegistrationChangesV1, ListRegistrationsV1, ReportWebhookHealthV1, SendNotificationV1 } from '@app/contracts';
import { DataSource } from 'typeorm';
import { DISPATCHER_CONFIG, DispatcherConfig } from './config';
import { ATTEMPT_RECORDER, BRIDGE_LIMITER, REGISTRATIONS_RPC, ROOMS_RPC } from './dispatcher.tokens';
import { BridgePacer } from './bridges/bridge-pacer';
import { BridgeSender } from './bridges/bridge-sender';
import { BridgesHandlers } from './bridges/bridges.handlers';
import { TestBridge } from './bridges/test-bridge.usecase';
import { requestThroughGuard } from './delivery/outbound-request';
import { BridgeRateLimiter, createBridgeRateLimiter } from './bridges/bridge-rate-limit';
import { DeliveryDecisions } from './delivery/delivery-decisions';
import { DeliveryQueues } from './delivery/delivery-queues';
import { DeliveryWorker } from './delivery/delivery-worker';
import { DeliveryMetrics } from './delivery/delivery-metrics';
import { AttemptToRecord, DeliveryRepository, isDeliveredAttempt } from './delivery/delivery.repository';
import { BatchWriter } from './delivery/batch-writer';
import { RecordPruner } from './delivery/record-pruner';
import { StalledRetries } from './delivery-log/stalled-retries';
import { DeliveryLogHandlers } from './delivery-log/delivery-log.handlers';
import { DeliveryLogRepository } from './delivery-log/delivery-log.repository';
import { DeliveryStats } from './delivery-log/delivery-stats.usecase';
import { GetDelivery } from './delivery-log/get-delivery.usecase';
import { ListDeliveries } from './delivery-log/list-deliveries.usecase';
import { RecoverDeliveries } from './delivery-log/recover-deliveries.usecase';
import { Redeliver } from './delivery-log/redeliver.usecase';
import { DispatcherLifecycle } from './dispatcher.lifecycle';
import { OrderedDeliveries, ORDERED_PREFETCH } from './ordered/ordered-deliveries';
import { OrderedLanes } from './ordered/ordered-lanes';
import { EventsConsumer } from './events/events.consumer';
import { HealthReporter } from './health/health-reporter';
import { InlineAttempts } from './events/inline-attempts';
import { Registrations } from './registrations/registrations';
import { withOpenedUrls } from './registrations/opened-urls';
import { ReplyPoster } from './replies/reply-poster';

@Module({})
export class DispatcherModule {
  /** The database is opened (and migrated) by bootstrap, and the broker connected (it also carries the commands). */
  static forRoot(config: DispatcherConfig, logger: AppLogger, db: DataSource, broker: AmqpBroker): DynamicModule {
    const names = brokerNames(config.BROKER_NAMESPACE);
    const startupMs = config.STARTUP_TIMEOUT_SECONDS * 1000;
    const decisions = new DeliveryDecisions(config.WEBHOOK_RETRY_SCHEDULE);
    return {
      module: DispatcherModule,
      controllers: [DeliveryLogHandlers, BridgesHandlers],
      providers: [
        { provide: DISPATCHER_CONFIG, useValue: config },
        { provide: APP_LOGGER, useValue: logger },
        { provide: DataSource, useValue: db },
        { provide: DeliveryDecisions, useValue: decisions },
        { provide: AmqpBroker, useValue: broker },
        { provide: DeliveryQueues, useFactory: () => DeliveryQueues.connect(config.AMQP_URL, names, decisions.tiers, logger, startupMs, broker.queueType) },
        { provide: ROOMS_RPC, useFactory: (broker: AmqpBroker) => broker.createRpcClient(names.roomsCommandQueue, 10_000), inject: [AmqpBroker] },
        { provide: REGISTRATIONS_RPC, useFactory: (broker: AmqpBroker) => broker.createRpcClient(names.roomsCommandQueue, 5_000), inject: [AmqpBroker] },
        {
          provide: GuardedHttpClient,
          useFactory: () => new GuardedHttpClient({
            allowedNetworks: config.WEBHOOK_ALLOWED_NETWORKS,
            timeoutMs: config.WEBHOOK_TIMEOUT_MS,
            maxResponseBytes: config.WEBHOOK_MAX_RESPONSE_BYTES,
          }),
        },
        { provide: DeliveryRepository, useFactory: () => new DeliveryRepository(db) },
        { provide: BRIDGE_LIMITER, useFactory: () => createBridgeRateLimiter(config, logger) },
        {
          provide: BridgeSender,
          useFactory: (http: GuardedHttpClient, bridgeLimiter: { limiter: BridgeRateLimiter }) => new BridgeSender(
            (request) => requestThroughGuard(http, request), config.SECRETS_KEYS, { limiter: bridgeLimiter.limiter, maxWaitMs: config.WEBHOOK_TIMEOUT_MS },
          ),
          inject: [GuardedHttpClient, BRIDGE_LIMITER],
        },
        { provide: TestBridge, useFactory: (registrations: Registrations, sender: BridgeSender) => new TestBridge(registrations, sender), inject: [Registrations, BridgeSender] },
        {
          provide: ATTEMPT_RECORDER,
          // An attempt's slot is given back once its record is written (DeliveryWorker): 5 ms gather
          // ~5 attempts per write at 1,000/s, and two writes at once keep the wait short under load.
          // A 2xx waits only for the end of the event loop's turn (see isDeliveredAttempt).
          useFactory: (repository: DeliveryRepository) =>
            new BatchWriter<AttemptToRecord>((items) => repository.recordAttempts(items), 200, 5, 2, isDeliveredAttempt),
          inject: [DeliveryRepository],
        },
        {
          provide: Registrations,
          // The URLs arrive sealed: opened once per load (withOpenedUrls), not per delivery.
          useFactory: (rpc: RpcClient) => new Registrations(
            async () => withOpenedUrls(await rpc.request(ListRegistrationsV1, { sealedUrls: true }), config.SECRETS_KEYS, logger), logger, {
              sourceReady: () => rpc.served(),
              changes: async (since) => withOpenedUrls(await rpc.request(ListRegistrationChangesV1, { since, sealedUrls: true }), config.SECRETS_KEYS, logger),
            }),
          inject: [REGISTRATIONS_RPC],
        },
        {
          provide: ReplyPoster,
          useFactory: (rpc: RpcClient) => new ReplyPoster((command, trace) => rpc.request(SendNotificationV1, command, trace)),
          inject: [ROOMS_RPC],
        },
        {
          provide: HealthReporter,
          useFactory: (rpc: RpcClient) => new HealthReporter((reports, commandId) => rpc.request(ReportWebhookHealthV1, { reports }, undefined, { commandId }), logger),
          inject: [ROOMS_RPC],
        },
        {
          provide: DeliveryWorker,
          useFactory: (
            registrations: Registrations, http: GuardedHttpClient, repository: DeliveryRepository, recorder: BatchWriter<AttemptToRecord>,
            queues: DeliveryQueues, replies: ReplyPoster, health: HealthReporter, bridges: BridgeSender, observability?: Observability,
          ) => new DeliveryWorker(registrations, http, repository, recorder, new BatchWriter((ids) => repository.progressOf(ids)), queues, decisions, replies, logger, {
            timeoutMs: config.WEBHOOK_TIMEOUT_MS, secrets: config.SECRETS_KEYS, maxInFlightPerSlowWebhook: config.WEBHOOK_SLOW_RECEIVER_LIMIT, health,
            metrics: observability ? new DeliveryMetrics(observability.registry) : undefined,
            tracing: observability?.tracing,
            // No linger: written at once, or with the attempts of other lanes that came meanwhile.
            laneRecorder: new BatchWriter<AttemptToRecord>((items) => repository.recordAttempts(items), 200),
            bridges,
            bridgeGone: (bridgeId, reason) => health.disableNow(bridgeId, reason),
          }),
          inject: [
            Registrations, GuardedHttpClient, DeliveryRepository, ATTEMPT_RECORDER, DeliveryQueues, ReplyPoster, HealthReporter, BridgeSender,
            // Absent when the module is built without ObservabilityModule around it.
            { token: OBSERVABILITY, optional: true },
          ],
        },
        {
          provide: EventsConsumer,
          useFactory: (registrations: Registrations, repository: DeliveryRepository, queues: DeliveryQueues, worker: DeliveryWorker, observability?: Observability) =>
            new EventsConsumer(
              registrations, repository, new BatchWriter((batches) => repository.insertPending(batches.flat()), 50), queues,
              new InlineAttempts((job, lease) => worker.handle(job, lease), config.WEBHOOK_CONCURRENCY), logger, observability?.tracing,
            ),
          inject: [Registrations, DeliveryRepository, DeliveryQueues, DeliveryWorker, { token: OBSERVABILITY, optional: true }],
        },
        {
          provide: OrderedDeliveries,
          useFactory: (registrations: Registrations, repository: DeliveryRepository, worker: DeliveryWorker, broker: AmqpBroker, bridgeLimiter: { limiter: BridgeRateLimiter }) =>
            new OrderedDeliveries(
              db, registrations, repository, new BatchWriter((batches) => repository.insertPending(batches.flat()), 50),
              () => new OrderedLanes((job, companions, paced) => worker.attemptInLane(job, companions, paced), (err, job) =>
                logger.warn({ err: (err as Error)?.message, deliveryId: job.deliveryId }, 'ordered delivery attempt failed to run; trying again'),
              new BridgePacer((id) => registrations.get(id), bridgeLimiter.limiter)),
              { consume: (handler) => broker.consumeEvents(orderedEventsQueue(names), ORDERED_PREFETCH, handler) },
              logger,
            ),
          inject: [Registrations, DeliveryRepository, DeliveryWorker, AmqpBroker, BRIDGE_LIMITER],
        },
        { provide: RecordPruner, useFactory: () => new RecordPruner(db, logger, {
          retentionDays: config.WEBHOOK_RECORD_RETENTION_DAYS, failedRetentionDays: config.WEBHOOK_FAILED_RETENTION_DAYS,
        }) },
        {
          provide: StalledRetries,
          // Past due by ten minutes, or three attempt timeouts if longer: a job merely late (a
          // broker outage, an attempt still running) has come back by then.
          useFactory: (queues: DeliveryQueues) => new StalledRetries(db, queues, logger, { graceMs: Math.max(10 * 60_000, 3 * config.WEBHOOK_TIMEOUT_MS) }),
          inject: [DeliveryQueues],
        },
        { provide: DeliveryLogRepository, useFactory: () => new DeliveryLogRepository(db) },
        { provide: ListDeliveries, useFactory: (log: DeliveryLogRepository) => new ListDeliveries(log), inject: [DeliveryLogRepository] },
        { provide: DeliveryStats, useFactory: (log: DeliveryLogRepository) => new DeliveryStats(log), inject: [DeliveryLogRepository] },
        {
          provide: GetDelivery,
          useFactory: (log: DeliveryLogRepository, registrations: Registrations) => new GetDelivery(log, registrations, config.SECRETS_KEYS),
          inject: [DeliveryLogRepository, Registrations],
        },
        {
          provide: Redeliver,
          useFactory: (log: DeliveryLogRepository, queues: DeliveryQueues) => new Redeliver(log, queues, logger),
          inject: [DeliveryLogRepository, DeliveryQueues],
        },
        {
          provide: RecoverDeliveries,
          useFactory: (log: DeliveryLogRepository, queues: DeliveryQueues) => new RecoverDeliveries(log, queues, logger),
          inject: [DeliveryLogRepository, DeliveryQueues],
        },
        // Errors reach the command server as thrown: it answers refusals with their CommandError.
        { provide: APP_FILTER, useClass: CommandErrorPassthrough },
        DispatcherLifecycle,
      ],
    };
  }
}
