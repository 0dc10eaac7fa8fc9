import { Injectable } from '@nestjs/common';
import { ListRegistrationsV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { WebhookRepository } from '../webhook.repository';

/**
 * Every registration with its secret, those removed lately, and the version of that
 * snapshot: a dispatcher replica's index. Only the dispatchers send this command.
 */
@Injectable()
export class ListRegistrations {
  constructor(private readonly db: DataSource, private readonly webhooks: WebhookRepository) {}

  async execute(c: RequestOf<typeof ListRegistrationsV1> = {}): Promise<ReplyOf<typeof ListRegistrationsV1>> {
    // One snapshot for both reads: the version must describe exactly these registrations.
    const snapshot = await this.db.transaction('REPEATABLE READ', async (m) => {
      const version = await this.webhooks.registrationsVersion(m);
      return { registrations: await this.webhooks.listAll(m), removed: await this.webhooks.listRemoved(m), version };
    });
    if (c.sealedUrls) return snapshot;
    return { ...snapshot, registrations: this.webhooks.withOpenedUrls(snapshot.registrations), removed: this.webhooks.withOpenedUrls(snapshot.removed) };
  }
}
