import type { WebhookView } from '@app/contracts';
import { toV2CreatedWebhook, toV2Webhook, toV2WebhookItem } from './webhooks.presenter';

const BASE = 'https://chat.example.test';
const view = (over: Partial<WebhookView> = {}): WebhookView => ({
  id: 5, roomId: 12, event: 'room_message', url: 'https://r.example/h?token=a', pattern: '^hi', name: 'Hi', authentication: 'jwt',
  key: 'hi', installationId: null, oauthClientId: null, created: '2025-01-01T00:00:00.000Z', ...over,
});

describe('v2 webhook presenter', () => {
  it('answers a creation with the id, its link and the secret', () => {
    expect(toV2CreatedWebhook(view(), 's3cret', BASE)).toEqual({ id: 5, links: { self: `${BASE}/v2/room/12/webhook/5` }, secret: 's3cret' });
  });

  it('lists the fields of a webhook, its key only when it has one, never a secret', () => {
    expect(toV2WebhookItem(view(), BASE)).toEqual({
      id: 5, name: 'Hi', url: 'https://r.example/h?token=a', event: 'room_message', pattern: '^hi', authentication: 'jwt', key: 'hi',
      links: { self: `${BASE}/v2/room/12/webhook/5` },
    });
    expect(toV2WebhookItem(view({ key: null, pattern: null }), BASE)).not.toHaveProperty('key');
    expect(toV2WebhookItem(view({ key: null, pattern: null }), BASE).pattern).toBeNull();
  });

  it('links a single webhook to its room', () => {
    expect(toV2Webhook(view(), BASE).links).toEqual({ self: `${BASE}/v2/room/12/webhook/5`, room: `${BASE}/v2/room/12` });
  });
});
