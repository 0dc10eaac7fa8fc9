import { INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  AmqpBroker, AmqpCommandServer, AppLogger, assertPostgresReachable, assertQueuesDeclarable, assertRabbitReachable, commandQueueDeclaration,
  CONNECTION, consumerQueueDeclarations, createLogger, MIGRATIONS, NestPinoLogger, ObservabilityModule, orderedEventsQueue, startObservability,
} from '@app/common';
import { brokerNames } from '@app/contracts';
import { DataSource } from 'typeorm';
import { RoomsConfig } from './config';
import { openDatabase } from './database/database';
import { readOutboxBacklog, registerOutboxMetrics } from './outbox/outbox-metrics';
import { RoomsAppModule } from './rooms-app.module';
import { describeReseal, resealSecrets, sum } from './secrets/reseal-secrets';
import { SecretsRepository } from './secrets/secrets.repository';

/**
 * Starts the rooms service: checks its dependencies (with a message that says what to do
 * when one is down), creates and migrates the database, then serves commands.
 * Used by main.ts and by the integration tests alike.
 */
export async function startRoomsService(config: RoomsConfig): Promise<INestMicroservice> {
  const logger = createLogger('rooms', config.LOG_LEVEL);
  const timeout = config.STARTUP_TIMEOUT_SECONDS * 1000;
  // First: live while it waits for its dependencies and migrates, and not ready until then.
  const observability = await startObservability('rooms', config, logger, { postgres: CONNECTION, rabbitmq: CONNECTION, migrations: MIGRATIONS });
  const { registry, readiness, tracing } = observability;
  let db: DataSource | undefined;
  let broker: AmqpBroker | undefined;
  try {
    await assertPostgresReachable(config.DATABASE_URL, timeout);
    await assertRabbitReachable(config.AMQP_URL, timeout);
    const names = brokerNames(config.BROKER_NAMESPACE);
    // Its durable queues: the commands it serves, and the ordered deliveries' queue its relay feeds.
    await assertQueuesDeclarable(config.AMQP_URL, [
      commandQueueDeclaration(names.roomsCommandQueue, config.AMQP_QUEUE_TYPE),
      ...consumerQueueDeclarations(names, orderedEventsQueue(names), config.AMQP_QUEUE_TYPE),
    ], timeout);
    const opened = await openDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
    db = opened;
    readiness.set('postgres', () => opened.query('SELECT 1').then(() => true));
    // openDatabase resolves once every migration has been applied.
    readiness.set('migrations', () => true);
    await sealSecretsAtRest(opened, config, logger);
    const connected = await AmqpBroker.connect(config.AMQP_URL, names, logger, timeout, { metrics: registry, queueType: config.AMQP_QUEUE_TYPE, tracing });
    broker = connected;
    readiness.set('rabbitmq', () => connected.isConnected());
    registerOutboxMetrics(registry, () => readOutboxBacklog(opened));
    const app = await NestFactory.createMicroservice(ObservabilityModule.around(RoomsAppModule.forRoot(config, logger, opened, connected), observability), {
      strategy: new AmqpCommandServer(connected, names.roomsCommandQueue, config.COMMAND_PREFETCH, logger, registry),
      logger: new NestPinoLogger(logger),
      abortOnError: false,
    });
    app.enableShutdownHooks();
    await app.listen();
    logger.info({ queue: names.roomsCommandQueue }, 'rooms service ready');
    return app;
  } catch (err) {
    await broker?.close().catch(() => undefined);
    await db?.destroy().catch(() => undefined);
    await observability.server.close();
    throw err;
  }
}

/**
 * Before serving: every secret kept in clear (from before secrets were sealed) or under an
 * older key is sealed with the current one (see resealSecrets: every replica may do it at
 * once). A value no key opens is reported, not fatal: its webhook cannot be signed, the rest works.
 */
async function sealSecretsAtRest(db: DataSource, config: RoomsConfig, logger: AppLogger): Promise<void> {
  const report = await resealSecrets(new SecretsRepository(db), config.SECRETS_KEYS);
  if (sum(report.unreadable) > 0) logger.warn({ unreadable: report.unreadable, unknownKeys: report.unknownKeys }, describeReseal(report));
  else if (sum(report.resealed) > 0) logger.info({ resealed: report.resealed, keyId: report.keyId }, describeReseal(report));
}
