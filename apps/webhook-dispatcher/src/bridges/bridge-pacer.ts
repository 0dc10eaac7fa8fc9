import { isBridge, type WebhookRegistration } from '@app/contracts';
import type { DeliveryJob } from '../delivery/delivery-job';
import type { LanePacer } from '../ordered/ordered-lanes';
import type { BridgeRateLimiter } from './bridge-rate-limit';
import { coalesceCount, estimateSize, POST_CAPACITY } from './coalesce';
import { FORMATS } from './formats';
import type { BridgeMessage } from './formats/types';

/**
 * Paces the ordered lanes of bridges (see LanePacer): a bridge's attempt goes once its
 * limiter grants a post (shared by every replica), and the deliveries waiting behind it go
 * into that post as far as one post of its platform holds them (the format's own answer:
 * FORMATS[kind](first n).length === 1). A webhook's lane is not paced.
 */
export class BridgePacer implements LanePacer {
  constructor(
    private readonly registrationOf: (webhookId: number) => WebhookRegistration | undefined,
    private readonly limiter: BridgeRateLimiter,
  ) {}

  async reserve(job: DeliveryJob): Promise<{ waitMs: number; paced: boolean }> {
    const registration = this.registrationOf(job.webhookId);
    if (!registration?.bridge) return { waitMs: 0, paced: false };
    const { waitMs } = await this.limiter.reserve(registration.id, registration.bridge.kind, registration.url);
    return { waitMs, paced: waitMs === 0 };
  }

  coalesce(waiting: readonly DeliveryJob[]): number {
    const registration = this.registrationOf(waiting[0].webhookId);
    return registration && isBridge(registration) ? coalescedCount(registration, waiting) : 1;
  }
}

/**
 * How many of a bridge's waiting deliveries (the head first) go into one post: a prefix of
 * those not yet partly posted (a delivery whose first parts were accepted goes on alone,
 * from its next part), as long as the platform's format makes one post of it.
 */
export function coalescedCount(registration: Pick<WebhookRegistration, 'bridge'>, waiting: readonly DeliveryJob[]): number {
  const bridge = registration.bridge;
  if (!bridge || waiting.length <= 1 || (waiting[0].partsDone ?? 0) > 0) return Math.min(1, waiting.length);
  const partly = waiting.findIndex((j, i) => i > 0 && (j.partsDone ?? 0) > 0);
  const whole = partly === -1 ? waiting : waiting.slice(0, partly);
  const messages = whole.map((j) => JSON.parse(j.envelopeBody) as BridgeMessage);
  const target = { kind: bridge.kind, matrixRoomId: bridge.matrixRoomId };
  return coalesceCount(
    messages.map((m, i) => ({ deliveryId: whole[i].deliveryId, size: estimateSize(m) })),
    POST_CAPACITY[bridge.kind],
    (n) => FORMATS[bridge.kind](messages.slice(0, n), target).length === 1,
  );
}
