import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { SecretBox, secretPurpose } from '@app/common';
import { Webhook } from 'standardwebhooks';
import { WebhookRegistration } from '@app/contracts';
import { standardWebhookKey } from '../signing/standard-webhooks';
import { DeliveryJob, deliveryIdOf } from './delivery-job';
import { deliveryRequest, signingSecretOf, withQueryParameter } from './delivery-request';

const registration = (over: Partial<WebhookRegistration> = {}): WebhookRegistration => ({
  id: 7, roomId: 3, event: 'room_message', url: 'https://receiver.example/hook?token=framework-token-123', pattern: null,
  name: 'Echo', authentication: 'none', delivery: 'concurrent', key: null, installationId: null, oauthClientId: null, created: '2026-01-01T00:00:00Z',
  secret: 'registration-secret-1', userId: 5, ...over,
});
const job: DeliveryJob = {
  deliveryId: deliveryIdOf('event-1', 7), webhookId: 7, event: 'room_message', eventId: 'event-1', roomId: 3, attempt: 2,
  envelopeBody: '{"event":"room_message","item":{},"webhook_id":7}', createdAt: '2026-01-01T00:00:00.000Z', replyDepth: 1, actorUserId: null, registrationsVersion: null,
};
const now = new Date();

describe('deliveryRequest', () => {
  it('POSTs the envelope as built, with Standard Webhooks headers keyed by the delivery id', () => {
    const r = deliveryRequest({ secret: 'registration-secret-1', job, registration: registration(), now });
    expect(r.url).toBe('https://receiver.example/hook?token=framework-token-123');
    expect(r.body).toBe(job.envelopeBody);
    expect(r.headers).toEqual({
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(job.envelopeBody)),
      'User-Agent': 'chat-room-service-webhooks/1',
      'webhook-id': job.deliveryId,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': expect.stringMatching(/^v1,/),
    });
    const verified = new Webhook(standardWebhookKey('registration-secret-1')).verify(r.body, r.headers);
    expect(verified).toEqual(JSON.parse(job.envelopeBody));
    expect(r.secrets).toEqual(expect.arrayContaining(['registration-secret-1', 'framework-token-123', r.headers['webhook-signature'].slice(3)]));
  });

  it('adds a JWT for authentication: jwt, in the Authorization header and as signed_request', () => {
    const addon = deliveryRequest({ secret: 'registration-secret-1', job, registration: registration({ authentication: 'jwt', oauthClientId: 'client-9', userId: null }), now });
    const token = addon.headers.Authorization.replace(/^JWT /, '');
    expect(addon.url).toBe(`https://receiver.example/hook?token=framework-token-123&signed_request=${token}`);
    const claims = jwt.verify(token, 'registration-secret-1', { algorithms: ['HS256'] }) as jwt.JwtPayload;
    expect(claims).toMatchObject({ iss: 'client-9', context: { room_id: 3 } });
    expect(claims.sub).toBeUndefined();
    expect(addon.secrets).toContain(token);

    // iss: the webhook id of a REST registration; sub: who caused the event, else who registered the webhook.
    const rest = deliveryRequest({ secret: 'registration-secret-1', job, registration: registration({ authentication: 'jwt' }), now });
    expect(jwt.verify(rest.headers.Authorization.slice(4), 'registration-secret-1')).toMatchObject({ iss: '7', sub: '5', prn: '5' });
    const acted = deliveryRequest({ secret: 'registration-secret-1', job: { ...job, actorUserId: 12 }, registration: registration({ authentication: 'jwt' }), now });
    expect(jwt.verify(acted.headers.Authorization.slice(4), 'registration-secret-1')).toMatchObject({ sub: '12', prn: '12' });

    const plain = deliveryRequest({ secret: 'registration-secret-1', job, registration: registration(), now });
    expect(plain.headers.Authorization).toBeUndefined();
    expect(plain.url).toBe('https://receiver.example/hook?token=framework-token-123');
  });
});

describe('withQueryParameter', () => {
  it('keeps the registered query string as written', () => {
    expect(withQueryParameter('https://a.example/h', 'x', 'y.z')).toBe('https://a.example/h?x=y.z');
    expect(withQueryParameter('https://a.example/h?q=a%20b+c', 'x', '1')).toBe('https://a.example/h?q=a%20b+c&x=1');
    expect(withQueryParameter('https://a.example/h?', 'x', '1')).toBe('https://a.example/h?x=1');
    expect(withQueryParameter('https://a.example/h?a=1#frag', 'x', '1')).toBe('https://a.example/h?a=1&x=1');
  });
});

describe('signingSecretOf', () => {
  const box = new SecretBox([{ id: 'k2', key: randomBytes(32) }, { id: 'k1', key: randomBytes(32) }]);

  it('opens the sealed secret a registration carries, for its purpose: its own, or its add-on client\'s', () => {
    expect(signingSecretOf(registration({ secret: box.seal('own', secretPurpose.webhook(7)) }), box)).toEqual({ secret: 'own' });
    const addon = registration({ oauthClientId: 'client-9', secret: box.seal('addon', secretPurpose.oauthClient('client-9')) });
    expect(signingSecretOf(addon, box)).toEqual({ secret: 'addon' });
    // A value in clear, from a rooms service of the previous version, is taken as it is.
    expect(signingSecretOf(registration(), box)).toEqual({ secret: 'registration-secret-1' });
  });

  it('says why it cannot sign, never with the value: a key it lacks, another row\'s secret, none', () => {
    const other = new SecretBox([{ id: 'k9', key: randomBytes(32) }]);
    expect(signingSecretOf(registration({ secret: other.seal('own', secretPurpose.webhook(7)) }), box))
      .toEqual({ problem: expect.stringMatching(/not sent: .*key k9, which SECRETS_KEYS does not hold/) });
    expect(signingSecretOf(registration({ secret: box.seal('own', secretPurpose.webhook(8)) }), box))
      .toEqual({ problem: expect.stringMatching(/does not authenticate/) });
    expect(signingSecretOf(registration({ secret: null as unknown as string }), box)).toEqual({ problem: 'not sent: the webhook has no signing secret' });
  });

  it('sends nothing to a URL no key opened (it stayed sealed when the registrations were loaded)', () => {
    const other = new SecretBox([{ id: 'k9', key: randomBytes(32) }]);
    const sealedUrl = other.seal('https://receiver.example/hook', secretPurpose.webhookUrl(7));
    expect(signingSecretOf(registration({ url: sealedUrl, secret: box.seal('own', secretPurpose.webhook(7)) }), box))
      .toEqual({ problem: expect.stringMatching(/^not sent: its URL cannot be decrypted/) });
  });
});
