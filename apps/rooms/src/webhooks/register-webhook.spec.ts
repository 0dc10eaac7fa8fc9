import { randomBytes } from 'node:crypto';
import { SecretBox, secretPurpose } from '@app/common';
import { RegisterWebhook, webhookReplyStorage } from './register-webhook';

const box = new SecretBox([{ id: 'k1', key: randomBytes(32) }]);
const url = 'https://receiver.example.com/hooks/in?key=abc-url-key';
const reply = { webhook: { id: 7, url, name: 'ci' }, secret: 'whsec-1', created: true };

describe('a stored reply that shows a webhook (create, put, enable)', () => {
  it('keeps its URL sealed for the webhook, and a redelivery answers it whole, as the first answer did', () => {
    const storage = webhookReplyStorage<typeof reply>(box);
    const stored = storage.storedReply(reply);
    expect(JSON.stringify(stored)).not.toContain('receiver.example.com');
    expect(box.open(stored.webhook.url, secretPurpose.webhookUrl(7))).toBe(url);
    expect(storage.fromStored(JSON.parse(JSON.stringify(stored)))).toEqual(reply);
  });

  it('answers a reply kept before URLs were sealed as it was kept', () => {
    expect(webhookReplyStorage<typeof reply>(box).fromStored(reply)).toEqual(reply);
  });

  it('keeps a create\'s secret and URL sealed, each for its purpose', () => {
    const storage = new RegisterWebhook(null as never, null as never, null as never, null as never, box).replyStorage<typeof reply>();
    const stored = storage.storedReply(reply) as typeof reply;
    const text = JSON.stringify(stored);
    for (const clear of ['whsec-1', 'abc-url-key']) expect(text).not.toContain(clear);
    expect(box.open(stored.secret, secretPurpose.webhook(7))).toBe('whsec-1');
    expect(storage.fromStored(JSON.parse(text))).toEqual(reply);
  });
});
