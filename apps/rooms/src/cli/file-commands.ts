import { env, LocalDirectoryStorage, storedNamesOf } from '@app/common';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { MessageRepository } from '../rooms/message.repository';

/** What `cli file restore-names` reads: the rooms database and the gateway's file directory. */
export const fileCliConfigShape = {
  DATABASE_URL: env.url(['postgres', 'postgresql'], 'postgres://postgres@127.0.0.1:5432/chat'),
  /** As the gateway's: the directory every gateway replica shares. */
  FILE_STORAGE_DIR: z.string().default('./data/files'),
};

/** What a run did, file by file (a thumbnail counts as a file). */
export interface RestoreNamesReport {
  /** Stored without a name, now named. */
  named: number;
  /** Named already: shared since names were kept, or named by an earlier run. */
  kept: number;
  /** Not in the directory (deleted, or another directory than the gateways'). */
  absent: number;
  /** Messages whose file has no name, or a URL that names no storage key of ours. */
  skipped: number;
}

const PAGE = 500;

/**
 * `cli file restore-names`: files shared before their name was kept in the storage sidecar
 * (ad9d7a3) download under their key's ASCII stand-in (`resume_.txt`). Their names are in
 * `messages.file`: each is written into its file's sidecar, and its thumbnail's. A one-off
 * run rather than a look-up at download time: it keeps the database off the download path,
 * and gateways start as fast as before. Safe to run again, and beside running gateways:
 * a file that has a name keeps it, and a sidecar is replaced whole, atomically.
 */
export class FileCommands {
  constructor(
    private readonly db: DataSource,
    private readonly storage: Pick<LocalDirectoryStorage, 'nameIfUnnamed'>,
    private readonly messages: Pick<MessageRepository, 'sharedFilesAfter'> = new MessageRepository(),
  ) {}

  async restoreNames(): Promise<RestoreNamesReport> {
    const report: RestoreNamesReport = { named: 0, kept: 0, absent: 0, skipped: 0 };
    let after: string | null = null;
    for (;;) {
      const page = await this.messages.sharedFilesAfter(this.db.manager, after, PAGE);
      for (const { file } of page) {
        const names = storedNamesOf(file);
        if (names.length === 0) report.skipped++;
        for (const { key, fileName } of names) report[await this.storage.nameIfUnnamed(key, fileName)]++;
      }
      if (page.length < PAGE) return report;
      after = page[page.length - 1].id;
    }
  }
}
