import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { standardWebhookHeaders, standardWebhookKey } from './standard-webhooks';

const secret = 'Zs3cr3t-é-ü-雪';
const body = JSON.stringify({ event: 'room_message', item: { message: { message: 'héllo' } }, webhook_id: 3 });
const deliveryId = '0b9c3f6e-2f43-4d1e-9a55-0c1d2e3f4a5b';

describe('standardWebhookHeaders', () => {
  it('is verified by the library given the same key, and webhook-id is the delivery id', () => {
    const timestamp = new Date();
    const headers = standardWebhookHeaders({ secret, deliveryId, timestamp, body });

    expect(Object.keys(headers).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    expect(headers['webhook-id']).toBe(deliveryId);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(timestamp.getTime() / 1000)));
    expect(new Webhook(standardWebhookKey(secret)).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('keys the HMAC with the UTF-8 bytes of the secret', () => {
    const timestamp = new Date();
    const headers = standardWebhookHeaders({ secret, deliveryId, timestamp, body });
    const ts = headers['webhook-timestamp'];
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${deliveryId}.${ts}.${body}`).digest('base64');

    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
    expect(standardWebhookKey(secret)).toBe(`whsec_${Buffer.from(secret, 'utf8').toString('base64')}`);
    expect(new Webhook(Buffer.from(secret, 'utf8'), { format: 'raw' }).verify(body, headers)).toBeDefined();
  });

  it('does not verify with another secret or another body', () => {
    const headers = standardWebhookHeaders({ secret, deliveryId, timestamp: new Date(), body });
    expect(() => new Webhook(standardWebhookKey('other')).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(standardWebhookKey(secret)).verify(body.replace('héllo', 'hello'), headers)).toThrow(WebhookVerificationError);
  });

  it('keeps the delivery id across retries while the timestamp and signature follow the attempt', () => {
    const first = standardWebhookHeaders({ secret, deliveryId, timestamp: new Date('2025-01-01T00:00:00Z'), body });
    const retry = standardWebhookHeaders({ secret, deliveryId, timestamp: new Date('2025-01-01T00:05:00Z'), body });
    expect(retry['webhook-id']).toBe(first['webhook-id']);
    expect(retry['webhook-timestamp']).toBe('1735689900');
    expect(retry['webhook-signature']).not.toBe(first['webhook-signature']);
  });
});
