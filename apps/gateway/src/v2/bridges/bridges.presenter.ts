import { type BridgeView, v2Links } from '@app/contracts';

/** v2 shapes of the rooms service's bridge views; `base` is the public base URL without a trailing slash. */

export const bridgeUrl = (b: Pick<BridgeView, 'id' | 'roomId'>, base: string) => v2Links(base).bridge(b.roomId, b.id);

/** Where a platform posts what people write in its channel: the key is shown this once (the service keeps its hash). */
export const inboundUrl = (key: string, base: string) => `${base}/v2/bridge/inbound/${key}`;

/** A bridge (see bridgeSchema); `inboundKey`: the inbound URL's key, when this answer made it. */
export function toV2Bridge(b: BridgeView, base: string, inboundKey?: string) {
  return {
    id: b.id,
    kind: b.kind,
    name: b.name,
    url: b.url,
    events: b.events,
    pattern: b.pattern,
    enabled: b.enabled,
    disabled_reason: b.disabledReason,
    created: b.created,
    health: {
      last_success_at: b.health.lastSuccessAt,
      failing_since: b.health.failingSince,
      consecutive_failures: b.health.consecutiveFailures,
      last_error: b.health.lastError,
    },
    ...(b.matrix ? { matrix: { room_id: b.matrix.roomId } } : {}),
    inbound: {
      enabled: b.inbound.enabled,
      ...(inboundKey !== undefined ? { url: inboundUrl(inboundKey, base) } : {}),
      verified_by: b.inbound.verifiedBy,
    },
    links: { self: bridgeUrl(b, base) },
  };
}
