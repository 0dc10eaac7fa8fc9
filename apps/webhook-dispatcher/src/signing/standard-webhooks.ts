import { createHmac } from 'node:crypto';

/**
 * The Standard Webhooks key of a signing secret. The key is the UTF-8 bytes of the secret
 * (an add-on's oauthSecret, or a REST registration's secret) as the receiver was given it.
 * The library takes keys as `whsec_` + base64(bytes) (its string form without `whsec_` is
 * base64 too, and its "raw" form reads UTF-16 code units, not UTF-8 bytes), so the secret is
 * presented that way. A receiver verifies with this same string, or with the raw UTF-8 bytes.
 */
export const standardWebhookKey = (secret: string): string =>
  `whsec_${Buffer.from(secret, 'utf8').toString('base64')}`;

/**
 * The Standard Webhooks headers of one attempt: `webhook-id` is the delivery id (the same
 * across retries, so receivers can drop duplicates), `webhook-timestamp` the attempt's time in
 * UNIX seconds, `webhook-signature` `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed
 * with the secret's UTF-8 bytes. Signed with node:crypto: the `standardwebhooks` package signs
 * with a pure-JavaScript SHA-256 that cost 3% of the dispatcher's CPU per delivery; the tests
 * verify these headers with that package.
 */
export function standardWebhookHeaders(o: { secret: string; deliveryId: string; timestamp: Date; body: string }): Record<string, string> {
  const timestamp = String(Math.floor(o.timestamp.getTime() / 1000));
  const mac = createHmac('sha256', Buffer.from(o.secret, 'utf8')).update(`${o.deliveryId}.${timestamp}.${o.body}`).digest('base64');
  return {
    'webhook-id': o.deliveryId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${mac}`,
  };
}
