import { DynamicModule, Module } from '@nestjs/common';
import { APP_LOGGER, AmqpBroker, AppLogger, SecretBox } from '@app/common';
import { DataSource } from 'typeorm';
import type { RoomsConfig } from '../config';
import { OutboxRelay, OutboxRelayOptions } from '../outbox/outbox-relay';
import { UnitOfWork } from '../outbox/unit-of-work';
import type { PresentationContext } from './presentation';

/** The rooms service's configuration, read and validated once at start-up. */
export const ROOMS_CONFIG = Symbol('ROOMS_CONFIG');

/** Where public links point, and the XMPP naming of rooms (see PresentationContext). */
export const PRESENTATION = Symbol('PRESENTATION');

export function presentationContext(config: Pick<RoomsConfig, 'PUBLIC_BASE_URL' | 'XMPP_MUC_DOMAIN'>): PresentationContext {
  return { baseUrl: config.PUBLIC_BASE_URL, xmppMucDomain: config.XMPP_MUC_DOMAIN, groupId: 1 };
}

/** The unit of work and its relay, shared by the service and the CLI. */
export function createUnitOfWork(
  db: DataSource, broker: AmqpBroker | undefined, logger: AppLogger,
  config: Pick<RoomsConfig, 'OUTBOX_POLL_MS' | 'LIVE_EVENTS_RETENTION' | 'COMMIT_BATCH_MAX' | 'COMMIT_CONCURRENCY'>, options: Pick<OutboxRelayOptions, 'awaitRelay'> = {},
) {
  const relay = new OutboxRelay(db, broker?.createEventPublisher() ?? null, logger, {
    pollMs: config.OUTBOX_POLL_MS, eventRetentionMs: config.LIVE_EVENTS_RETENTION, ...options,
  });
  const uow = new UnitOfWork(db, relay, logger, { maxBatch: config.COMMIT_BATCH_MAX, maxConcurrent: config.COMMIT_CONCURRENCY, tracing: broker?.tracing });
  return { relay, uow };
}

/**
 * What every aggregate's module uses: configuration, logger, presentation context, the
 * database, the broker, and the unit of work with its outbox relay. Global, so that each
 * aggregate's module declares only the aggregates it depends on.
 */
@Module({})
export class InfrastructureModule {
  /** The database and broker are opened by bootstrap (the broker also carries the commands). */
  static forRoot(config: RoomsConfig, logger: AppLogger, db: DataSource, broker: AmqpBroker): DynamicModule {
    const { relay, uow } = createUnitOfWork(db, broker, logger, config);
    const providers = [
      { provide: ROOMS_CONFIG, useValue: config },
      { provide: APP_LOGGER, useValue: logger },
      { provide: PRESENTATION, useValue: presentationContext(config) },
      { provide: DataSource, useValue: db },
      { provide: AmqpBroker, useValue: broker },
      { provide: OutboxRelay, useValue: relay },
      { provide: UnitOfWork, useValue: uow },
      { provide: SecretBox, useValue: config.SECRETS_KEYS },
    ];
    return { module: InfrastructureModule, global: true, providers, exports: providers.map((p) => p.provide) };
  }
}
