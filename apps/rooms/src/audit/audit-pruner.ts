import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_LOGGER, AppLogger } from '@app/common';
import { DataSource } from 'typeorm';
import type { RoomsConfig } from '../config';
import { ROOMS_CONFIG } from '../shared/infrastructure.module';
import { AuditRepository } from './audit.repository';

/**
 * Every AUDIT_PRUNE_EVERY, deletes the audit lines older than AUDIT_RETENTION_DAYS, a batch
 * at a time until none is left. Every replica runs it: the deletes skip each other's rows
 * (SKIP LOCKED), so N replicas prune no slower and never twice.
 */
@Injectable()
export class AuditPruner implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly db: DataSource,
    private readonly audit: AuditRepository,
    @Inject(ROOMS_CONFIG) private readonly config: RoomsConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => { this.running ??= this.prune().finally(() => { this.running = undefined; }); }, this.config.AUDIT_PRUNE_EVERY);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async prune(): Promise<number> {
    let total = 0;
    try {
      for (;;) {
        const n = await this.audit.prune(this.db.manager, this.config.AUDIT_RETENTION_DAYS);
        total += n;
        if (n === 0 || !this.db.isInitialized) break;
      }
      if (total > 0) this.logger.info({ lines: total, retentionDays: this.config.AUDIT_RETENTION_DAYS }, 'audit log pruned');
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'audit log pruning failed; tried again at the next interval');
    }
    return total;
  }
}
