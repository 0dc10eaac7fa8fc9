import type { DeliveryStatsV1, ReplyOf, RequestOf } from '@app/contracts';
import { deliveryStats, floorToBucket } from './delivery-stats';
import type { DeliveryLogRepository } from './delivery-log.repository';

/** A webhook's (or bridge's) deliveries since a time, per hour or day, zero-filled: what its charts draw. */
export class DeliveryStats {
  constructor(private readonly log: Pick<DeliveryLogRepository, 'stats'>, private readonly clock: () => Date = () => new Date()) {}

  async execute(c: RequestOf<typeof DeliveryStatsV1>): Promise<ReplyOf<typeof DeliveryStatsV1>> {
    const until = this.clock();
    // The first bucket whole: a chart's first hour counts all of that hour, not its tail.
    const from = floorToBucket(new Date(Math.min(Date.parse(c.since), until.getTime())), c.bucket);
    const rows = await this.log.stats(c.webhookId, from, until, c.bucket);
    return { stats: deliveryStats(rows, from, until, c.bucket) };
  }
}
