import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { OutboxRelay } from './outbox-relay';

/**
 * Runs a change in a transaction, then wakes the relay so that the events the change wrote
 * to the outbox are published right away instead of at the next poll.
 */
@Injectable()
export class OutboxTransaction {
  constructor(private readonly db: DataSource, private readonly relay: OutboxRelay) {}

  async run<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.db.transaction(work);
    this.relay.kick();
    return result;
  }
}
