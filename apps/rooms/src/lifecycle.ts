import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_LOGGER, AmqpBroker, AppLogger } from '@app/common';
import { DataSource } from 'typeorm';
import { OutboxRelay } from './outbox/outbox-relay';

/** Starts the relay once the service is up; closes everything in order on shutdown. */
@Injectable()
export class RoomsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly relay: OutboxRelay,
    private readonly broker: AmqpBroker,
    private readonly db: DataSource,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async onApplicationShutdown(signal?: string): Promise<void> {
    this.logger.info({ signal }, 'rooms service stopping');
    await this.relay.stop();
    await this.broker.close();
    if (this.db.isInitialized) await this.db.destroy();
  }
}
