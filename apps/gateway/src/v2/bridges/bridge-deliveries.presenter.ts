import { isSecretName, MASKED_VALUE, maskedBridgeUrl } from '@app/common';
import type { BridgeTestReply, DeliveryDetailView } from '@app/contracts';
import { toV2Delivery } from '../webhooks/webhook-deliveries.presenter';

/**
 * GET .../bridge/{id}/delivery/{delivery}: a webhook delivery's shape, with the request's URL
 * masked for everyone, its creator included (a platform's incoming-webhook URL is itself the
 * credential, in its path), and the value of any header named as a secret (Matrix's
 * `Authorization: Bearer` access token) masked.
 */
export function toV2BridgeDelivery(d: DeliveryDetailView, bridgeSelf: string) {
  const request = d.request;
  return toV2Delivery({
    ...d,
    request: {
      ...request,
      headers: request.headers === null ? null
        : Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, isSecretName(k) ? MASKED_VALUE : v])),
    },
  }, bridgeSelf, maskedBridgeUrl);
}

/** POST .../bridge/{id}/test: what the platform answered. */
export const toV2BridgeTest = (r: BridgeTestReply) => ({ status: r.status, body: r.body, outcome: r.outcome, duration_ms: r.durationMs });
