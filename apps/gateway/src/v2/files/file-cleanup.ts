import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_LOGGER, AppLogger, FileStorage } from '@app/common';
import { ForgetRemovedFilesV1, ListRemovedFilesV1 } from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { RoomsClient } from '../../shared/rooms-client';
import { FILE_STORAGE } from './file-storage.token';

const BATCH = 200;

/**
 * Removes the files of deleted rooms from the storage. A room's deletion marks its files in
 * the same transaction (they are refused from its commit on); every gateway, at start and
 * every FILE_CLEANUP_INTERVAL, removes the marked ones and only then has their marks
 * forgotten, so a crash in between leaves them to the next round: none is lost track of.
 * Replicas may remove the same file at once: removing a removed file does nothing.
 */
@Injectable()
export class FileCleanup implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(FILE_STORAGE) private readonly storage: FileStorage,
    private readonly rooms: RoomsClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.runOnce(), this.config.FILE_CLEANUP_INTERVAL);
    this.timer.unref();
    void this.runOnce();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One round (none starts while another runs); failures are logged and left to the next. */
  runOnce(): Promise<void> {
    this.running ??= this.sweep()
      .catch((err: Error) => this.logger.warn({ err: err.message }, 'could not remove the files of deleted rooms; trying again later'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async sweep(): Promise<void> {
    for (;;) {
      const { keys } = await this.rooms.send(ListRemovedFilesV1, { limit: BATCH });
      if (keys.length === 0) return;
      const removed: string[] = [];
      for (const key of keys) {
        try {
          await this.storage.delete(key);
          removed.push(key);
        } catch (err) {
          this.logger.warn({ key, err: (err as Error).message }, 'could not remove a deleted room\'s file; trying again later');
        }
      }
      if (removed.length > 0) await this.rooms.send(ForgetRemovedFilesV1, { keys: removed });
      this.logger.info({ files: removed.length }, 'removed the files of deleted rooms');
      // A key that could not be removed stays listed: stop rather than list it again now.
      if (removed.length < keys.length || keys.length < BATCH) return;
    }
  }
}
