import { Injectable } from '@nestjs/common';
import { ListRegistrationsV1, ReplyOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { WebhookRepository } from '../webhook.repository';

/**
 * Every registration with its secret: a dispatcher replica's snapshot, loaded at start and
 * on each `webhook.registrations-changed.v1`. Only the dispatchers send this command.
 */
@Injectable()
export class ListRegistrations {
  constructor(private readonly db: DataSource, private readonly webhooks: WebhookRepository) {}

  async execute(): Promise<ReplyOf<typeof ListRegistrationsV1>> {
    return { registrations: await this.webhooks.listAll(this.db.manager) };
  }
}
