import { NO_WEBHOOK_HEALTH, WebhookView } from '@app/contracts';
import { toV2CreatedWebhook, toV2Webhook, toV2WebhookItem } from './webhooks.presenter';
import { webhookItemSchema, webhookSchema } from './webhooks.schemas';

const BASE = 'https://chat.example.test';
const view = (over: Partial<WebhookView> = {}): WebhookView => ({
  id: 5, roomId: 12, event: 'room_message', url: 'https://r.example/h?token=a', pattern: '^hi', name: 'Hi', authentication: 'jwt', delivery: 'concurrent',
  key: 'hi', installationId: null, oauthClientId: null, created: '2025-01-01T00:00:00.000Z',
  enabled: true, disabledReason: null, disabledAt: null, health: { ...NO_WEBHOOK_HEALTH }, ...over,
});
const FAILING = {
  enabled: false,
  disabledReason: 'every delivery attempt since 2025-02-01T00:00:00.000Z has failed (20 failures over 5d; last error: HTTP 500)',
  disabledAt: '2025-02-06T00:00:00.000Z',
  health: {
    lastSuccessAt: '2025-01-31T23:00:00.000Z', failingSince: '2025-02-01T00:00:00.000Z', consecutiveFailures: 20,
    lastFailureAt: '2025-02-06T00:00:00.000Z', lastError: 'HTTP 500',
  },
};

describe('v2 webhook presenter', () => {
  it('answers a creation with the id, its link and the secret', () => {
    expect(toV2CreatedWebhook(view(), 's3cret', BASE)).toEqual({ id: 5, links: { self: `${BASE}/v2/room/12/webhook/5` }, secret: 's3cret' });
  });

  it('answers an add-on\'s creation with no secret (it signs with the oauthSecret the add-on holds)', () => {
    expect(toV2CreatedWebhook(view({ oauthClientId: 'c-1' }), undefined, BASE)).toEqual({ id: 5, links: { self: `${BASE}/v2/room/12/webhook/5` } });
  });

  it('lists the fields of a webhook and its health, its key only when it has one, never a secret', () => {
    expect(toV2WebhookItem(view(), BASE)).toEqual({
      id: 5, name: 'Hi', url: 'https://r.example/h?token=a', event: 'room_message', pattern: '^hi', authentication: 'jwt', delivery: 'concurrent', key: 'hi',
      enabled: true, last_success_at: null, failing_since: null, consecutive_failures: 0, disabled_reason: null,
      links: { self: `${BASE}/v2/room/12/webhook/5` },
    });
    expect(toV2WebhookItem(view({ key: null, pattern: null }), BASE)).not.toHaveProperty('key');
    expect(toV2WebhookItem(view({ key: null, pattern: null }), BASE).pattern).toBeNull();
  });

  it('shows a disabled webhook: since when it fails, how often, and why it was disabled', () => {
    expect(toV2WebhookItem(view(FAILING), BASE)).toMatchObject({
      enabled: false, last_success_at: '2025-01-31T23:00:00.000Z', failing_since: '2025-02-01T00:00:00.000Z', consecutive_failures: 20,
      disabled_reason: FAILING.disabledReason,
    });
  });

  it('links a single webhook to its room', () => {
    expect(toV2Webhook(view(), BASE).links).toEqual({ self: `${BASE}/v2/room/12/webhook/5`, room: `${BASE}/v2/room/12` });
  });

  it('answers what the OpenAPI document says', () => {
    for (const w of [view(), view(FAILING), view({ key: null })]) {
      expect(webhookItemSchema.strict().safeParse(toV2WebhookItem(w, BASE)).success).toBe(true);
      expect(webhookSchema.strict().safeParse(toV2Webhook(w, BASE)).success).toBe(true);
    }
  });
});
