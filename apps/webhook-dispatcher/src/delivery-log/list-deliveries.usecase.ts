import type { ListDeliveriesV1, ReplyOf, RequestOf } from '@app/contracts';
import { toDeliveryView } from './delivery-log-views';
import { DeliveryLogRepository } from './delivery-log.repository';

/** A webhook's deliveries, newest first, filtered, a page at a time. */
export class ListDeliveries {
  constructor(private readonly log: DeliveryLogRepository) {}

  async execute(c: RequestOf<typeof ListDeliveriesV1>): Promise<ReplyOf<typeof ListDeliveriesV1>> {
    const rows = await this.log.list(c);
    return { deliveries: rows.map((row) => ({ ...toDeliveryView(row), position: { createdAt: row.position_at, id: row.id } })) };
  }
}
