import { SecretBox } from '@app/common';
import type { GetDeliveryV1, ReplyOf, RequestOf } from '@app/contracts';
import { Registrations } from '../registrations/registrations';
import { toDeliveryDetail } from './delivery-log-views';
import { DeliveryLogRepository } from './delivery-log.repository';
import { ofWebhook } from './not-found';

/** One delivery in full: the request as sent (credentials cut short), every attempt, its reply. */
export class GetDelivery {
  constructor(private readonly log: DeliveryLogRepository, private readonly registrations: Registrations, private readonly box: SecretBox) {}

  async execute(c: RequestOf<typeof GetDeliveryV1>): Promise<ReplyOf<typeof GetDeliveryV1>> {
    // Both by primary key, at once: the attempts of another webhook's delivery are read and dropped.
    const [row, attempts] = await Promise.all([this.log.find(c.delivery), this.log.attempts(c.delivery)]);
    const found = ofWebhook(row, c.delivery, c.webhookId);
    return { delivery: toDeliveryDetail(found, attempts, this.registrations.get(found.webhook_id), new Date(), this.box) };
  }
}
