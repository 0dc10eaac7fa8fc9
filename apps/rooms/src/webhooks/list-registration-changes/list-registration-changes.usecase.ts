import { Injectable } from '@nestjs/common';
import { ListRegistrationChangesV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { WebhookRepository } from '../webhook.repository';

/**
 * The registration changes since a dispatcher replica's version of its index: the forms
 * written and the forms removed after it, and the version of that snapshot. What a replica
 * loads after a change instead of every registration (ListRegistrations). Only the
 * dispatchers send this command.
 */
@Injectable()
export class ListRegistrationChanges {
  constructor(private readonly db: DataSource, private readonly webhooks: WebhookRepository) {}

  async execute(c: RequestOf<typeof ListRegistrationChangesV1>): Promise<ReplyOf<typeof ListRegistrationChangesV1>> {
    // One snapshot for the three reads: registration changes commit in version order, so
    // this snapshot holds every change up to `version` and none after.
    const changes = await this.db.transaction('REPEATABLE READ', async (m) => {
      const version = await this.webhooks.registrationsVersion(m);
      return {
        registrations: await this.webhooks.listWrittenSince(m, c.since),
        removed: await this.webhooks.listRemovedSince(m, c.since),
        version,
      };
    });
    // To a dispatcher of the version before URLs were sealed at rest: opened (ListRegistrationsV1).
    if (c.sealedUrls) return changes;
    return { ...changes, registrations: this.webhooks.withOpenedUrls(changes.registrations), removed: this.webhooks.withOpenedUrls(changes.removed) };
  }
}
