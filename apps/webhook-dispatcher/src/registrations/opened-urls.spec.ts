import { randomBytes } from 'node:crypto';
import { AppLogger, SecretBox, secretPurpose } from '@app/common';
import { WebhookRegistration } from '@app/contracts';
import { urlProblemOf, withOpenedUrls } from './opened-urls';

const box = new SecretBox([{ id: 'k2', key: randomBytes(32) }, { id: 'k1', key: randomBytes(32) }]);
const lost = new SecretBox([{ id: 'gone', key: randomBytes(32) }]);
const registration = (id: number, url: string, over: Partial<WebhookRegistration> = {}): WebhookRegistration => ({
  id, roomId: 3, event: 'room_message', url, pattern: null, name: '', authentication: 'none', delivery: 'concurrent', key: null,
  installationId: null, oauthClientId: null, created: '2026-01-01T00:00:00Z', secret: 's', userId: 5, ...over,
});
const logger = () => {
  const warnings: Array<{ fields: unknown; message: string }> = [];
  return { warnings, logger: { warn: (fields: unknown, message: string) => warnings.push({ fields, message }) } as unknown as AppLogger };
};

describe('withOpenedUrls', () => {
  it('opens each URL the rooms service sent sealed, of the forms in force and the removed ones, once per load', () => {
    const slack = 'https://hooks.slack.com/services/T1/B1/SECRET';
    const snapshot = {
      version: 9,
      registrations: [registration(1, box.seal('https://receiver.example/in?key=abc', secretPurpose.webhookUrl(1)))],
      removed: [registration(2, box.seal(slack, secretPurpose.webhookUrl(2)), { removedVersion: 8 })],
    };
    const opened = withOpenedUrls(snapshot, box);
    expect(opened.registrations.map((r) => r.url)).toEqual(['https://receiver.example/in?key=abc']);
    expect(opened.removed!.map((r) => [r.url, r.removedVersion])).toEqual([[slack, 8]]);
    expect(opened.version).toBe(9);
  });

  it('takes a URL sent in clear (a rooms service of the previous version) as it is', () => {
    const r = registration(1, 'https://receiver.example/in');
    expect(withOpenedUrls({ version: 1, registrations: [r] }, box).registrations[0]).toBe(r);
  });

  it('leaves sealed a URL no key opens, or one sealed for another row, and names their ids in a warning, never a value', () => {
    const { warnings, logger: log } = logger();
    const snapshot = {
      version: 2,
      registrations: [
        registration(4, lost.seal('https://receiver.example/lost', secretPurpose.webhookUrl(4))),
        registration(3, box.seal('https://receiver.example/other-row', secretPurpose.webhookUrl(99))),
      ],
    };
    const opened = withOpenedUrls(snapshot, box, log);
    expect(opened.registrations.map((r) => SecretBox.isSealed(r.url))).toEqual([true, true]);
    expect(opened.registrations.map(urlProblemOf)).toEqual([expect.stringMatching(/^not sent: its URL cannot be decrypted/), expect.any(String)]);
    expect(warnings).toEqual([{ fields: { webhookIds: [3, 4] }, message: expect.stringMatching(/no key of SECRETS_KEYS decrypts/) }]);
    expect(JSON.stringify(warnings)).not.toContain('enc:v1');
  });

  it('finds no problem with an opened URL', () => {
    expect(urlProblemOf({ url: 'https://receiver.example/in' })).toBeNull();
  });
});
