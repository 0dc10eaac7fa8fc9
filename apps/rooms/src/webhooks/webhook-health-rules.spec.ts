import { HealthTally } from '@app/contracts';
import { crossedThresholds, disabledNotice, disabledReason } from './webhook-health-rules';

const T0 = Date.parse('2025-03-01T10:00:00.000Z');
const DAY = 86_400_000;
const failing = (failures: number, spanMs: number, lastError: string | null = 'HTTP 500'): HealthTally =>
  ({ lastSuccessAt: T0 - 1_000, failures, firstFailureAt: T0, lastFailureAt: T0 + spanMs, lastError });

describe('crossedThresholds', () => {
  const limits = { afterMs: 5 * DAY, minFailures: 20 };

  it('disables once every attempt has failed for long enough and often enough', () => {
    expect(crossedThresholds(failing(20, 5 * DAY), limits)).toBe(true);
    expect(crossedThresholds(failing(500, 6 * DAY), limits)).toBe(true);
  });

  it('not before both: a burst of failures, or a few failures over a long time', () => {
    expect(crossedThresholds(failing(5_000, 5 * DAY - 1), limits)).toBe(false);
    expect(crossedThresholds(failing(19, 30 * DAY), limits)).toBe(false);
  });

  it('not while it is not failing', () => {
    expect(crossedThresholds({ lastSuccessAt: T0, failures: 0, firstFailureAt: null, lastFailureAt: T0 - DAY, lastError: 'timeout' }, limits)).toBe(false);
  });

  it('takes thresholds of seconds and a few failures', () => {
    expect(crossedThresholds(failing(3, 2_000), { afterMs: 2_000, minFailures: 3 })).toBe(true);
    expect(crossedThresholds(failing(3, 1_999), { afterMs: 2_000, minFailures: 3 })).toBe(false);
  });
});

describe('the notice of a disabled webhook', () => {
  it('says since when, how many failures over how long, and the last error', () => {
    expect(disabledReason(failing(23, 5 * DAY + 3 * 3_600_000))).toBe(
      'every delivery attempt since 2025-03-01T10:00:00.000Z has failed (23 failures over 5d 3h; last error: HTTP 500)');
    expect(disabledReason(failing(3, 2_900, null))).toBe('every delivery attempt since 2025-03-01T10:00:00.000Z has failed (3 failures over 2s)');
  });

  it('names the webhook and id, shows its URL without credentials or query, and says how to enable it in its room', () => {
    const text = disabledNotice(
      { id: 12, name: 'Deploy bot', url: 'https://bot:pa55@bots.example.com/hook?signed_request=abc#x', roomId: 7 },
      disabledReason(failing(23, 5 * DAY)));
    expect(text).toBe('"Deploy bot" (webhook 12), which posts to https://bots.example.com/hook, has been disabled: '
      + 'every delivery attempt since 2025-03-01T10:00:00.000Z has failed (23 failures over 5d; last error: HTTP 500). '
      + 'No more events are sent to it. Once its receiver works again, enable it with POST /v2/room/7/webhook/12/enable '
      + '(or cli webhook enable 12); the events it missed meanwhile are not sent by that.');
    expect(text).not.toMatch(/pa55|signed_request|abc/);
  });

  it('names a bridge by its platform, never by its URL (its path is the credential)', () => {
    const text = disabledNotice({ id: 9, name: '', url: 'https://hooks.slack.com/services/T0/B0/s3cret', roomId: 7, bridge: { kind: 'slack' } }, 'r');
    expect(text).toBe('Slack bridge 9, which posts to Slack, has been disabled: r. No more events are sent to it. '
      + 'Once its receiver works again, enable it with POST /v2/room/7/bridge/9/enable; the events it missed meanwhile are not sent by that.');
    expect(disabledNotice({ id: 9, name: 'Ops', url: 'https://x', roomId: 7, bridge: { kind: 'teams' } }, 'r')).toMatch(/^"Ops" \(Microsoft Teams bridge 9\), which posts to Microsoft Teams, has/);
  });

  it('names an unnamed webhook by its id; a group-wide one is enabled with the CLI', () => {
    const text = disabledNotice({ id: 4, name: '', url: 'http://addon.example.com/all', roomId: null }, 'r');
    expect(text).toMatch(/^Webhook 4, which posts to http:\/\/addon\.example\.com\/all, has been disabled: r\./);
    expect(text).toContain('enable it with cli webhook enable 4;');
  });
});
