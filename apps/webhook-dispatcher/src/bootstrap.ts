import { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  AmqpBroker, AmqpCommandServer, assertPostgresReachable, assertQueuesDeclarable, assertRabbitReachable, commandQueueDeclaration,
  CONNECTION, consumerQueueDeclarations, createLogger, MIGRATIONS, NestPinoLogger, ObservabilityModule, orderedEventsQueue, startObservability,
} from '@app/common';
import { brokerNames } from '@app/contracts';
import { DataSource } from 'typeorm';
import { DispatcherConfig } from './config';
import { openDispatcherDatabase } from './database/database';
import { DispatcherModule } from './dispatcher.module';
import { DeliveryDecisions } from './delivery/delivery-decisions';
import { DeliveryQueues } from './delivery/delivery-queues';
import { registerDeliveryGauges } from './delivery/delivery-metrics';
import { DeliveryRepository } from './delivery/delivery.repository';
import { roomEventsQueue } from './events/room-events';
import { Registrations } from './registrations/registrations';

/** Commands of the delivery log one replica handles at once (reads by index, and queueing jobs). */
const COMMAND_PREFETCH = 16;

/**
 * Starts the dispatcher (no HTTP: it consumes events and delivers them, and serves the
 * delivery log's commands on a queue of its own, as the rooms service serves its own):
 * checks its dependencies, migrates its own tables, loads the webhook registrations, then
 * consumes. Used by main.ts and the tests.
 */
export async function startDispatcher(config: DispatcherConfig): Promise<INestMicroservice> {
  const logger = createLogger('webhook-dispatcher', config.LOG_LEVEL);
  const timeout = config.STARTUP_TIMEOUT_SECONDS * 1000;
  // First: live while it waits for its dependencies and migrates, and not ready until then.
  const observability = await startObservability('webhook-dispatcher', config, logger, { postgres: CONNECTION, rabbitmq: CONNECTION, migrations: MIGRATIONS });
  const { registry, readiness } = observability;
  let db: DataSource | undefined;
  let broker: AmqpBroker | undefined;
  try {
    await assertPostgresReachable(config.DATABASE_URL, timeout);
    await assertRabbitReachable(config.AMQP_URL, timeout);
    const names = brokerNames(config.BROKER_NAMESPACE);
    const type = config.AMQP_QUEUE_TYPE;
    await assertQueuesDeclarable(config.AMQP_URL, [
      commandQueueDeclaration(names.dispatcherCommandQueue, type),
      ...consumerQueueDeclarations(names, roomEventsQueue(names), type),
      ...consumerQueueDeclarations(names, orderedEventsQueue(names), type),
      ...DeliveryQueues.declarations(names, new DeliveryDecisions(config.WEBHOOK_RETRY_SCHEDULE).tiers, type),
    ], timeout);
    const opened = await openDispatcherDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
    db = opened;
    readiness.set('postgres', () => opened.query('SELECT 1').then(() => true));
    // openDispatcherDatabase resolves once every migration has been applied.
    readiness.set('migrations', () => true);
    broker = await AmqpBroker.connect(config.AMQP_URL, names, logger, timeout, { metrics: registry, queueType: config.AMQP_QUEUE_TYPE, tracing: observability.tracing });
    const app = await NestFactory.createMicroservice(ObservabilityModule.around(DispatcherModule.forRoot(config, logger, opened, broker), observability), {
      strategy: new AmqpCommandServer(broker, names.dispatcherCommandQueue, COMMAND_PREFETCH, logger, registry),
      logger: new NestPinoLogger(logger),
      abortOnError: false,
    });
    // Two connections to the broker: the shared one (events, commands) and the deliveries' own.
    const connected = broker;
    const queues = app.get(DeliveryQueues);
    readiness.set('rabbitmq', () => connected.isConnected() && queues.isConnected());
    const registrations = app.get(Registrations);
    const repository = app.get(DeliveryRepository);
    registerDeliveryGauges(registry, { unfinished: () => repository.countUnfinished(), disabledWebhooks: () => registrations.disabled });
    app.enableShutdownHooks();
    // Initialises (registrations loaded, events consumed: see DispatcherLifecycle), then serves the commands.
    await app.listen();
    return app;
  } catch (err) {
    await broker?.close().catch(() => undefined);
    await db?.destroy().catch(() => undefined);
    await observability.server.close();
    throw err;
  }
}
