import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_LOGGER, AmqpBroker, AppLogger, CommandContext } from '@app/common';
import { CommandFailure } from '@app/contracts';
import { Observable, tap } from 'rxjs';
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

/** One structured log line per command handled. */
@Injectable()
export class CommandLogInterceptor implements NestInterceptor {
  constructor(@Inject(APP_LOGGER) private readonly logger: AppLogger) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const started = process.hrtime.bigint();
    const pattern = context.switchToRpc().getContext<CommandContext>().meta.pattern;
    const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
    return next.handle().pipe(tap({
      next: () => this.logger.debug({ command: pattern, ms: ms() }, 'command handled'),
      error: (err: unknown) => {
        // Failures that are not refusals are logged once, by the command server.
        if (err instanceof CommandFailure) this.logger.info({ command: pattern, ms: ms(), error: err.error.reason }, 'command refused');
      },
    }));
  }
}
