import { CommandFailure } from '@app/contracts';
import {
  assertNotAddOns, assertPatternApplies, assertUnderLimit, assertUrlReachable, describeWebhookRef, fieldsOf, newWebhookSecret, registrantOf, webhookKeyTaken, webhookNotFound,
} from './webhook-rules';

const failureOf = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(CommandFailure);
    return (err as CommandFailure).error;
  }
  throw new Error('expected a CommandFailure');
};

describe('webhook rules', () => {
  it('a REST registration belongs to its room and the token\'s user, or the add-on whose token registered it', () => {
    expect(registrantOf(7, { userId: 3 }, null)).toEqual({ roomId: 7, userId: 3, addOn: null });
    expect(registrantOf(7, {}, null)).toEqual({ roomId: 7, userId: null, addOn: null });
    expect(registrantOf(7, {}, 'client-a')).toEqual({ roomId: 7, userId: null, addOn: 'client-a' });
  });

  it('fills the defaults a request leaves out', () => {
    expect(fieldsOf({ url: 'https://a.example/', event: 'room_enter' }))
      .toEqual({ url: 'https://a.example/', event: 'room_enter', pattern: null, name: '', authentication: 'none', delivery: 'concurrent' });
    expect(fieldsOf({ url: 'https://a.example/', event: 'room_message', pattern: 'x', name: 'n', authentication: 'jwt', delivery: 'ordered' }))
      .toEqual({ url: 'https://a.example/', event: 'room_message', pattern: 'x', name: 'n', authentication: 'jwt', delivery: 'ordered' });
  });

  it('makes a fresh 32-byte base64url secret each time', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('takes a pattern for room_message only', () => {
    expect(() => assertPatternApplies({ event: 'room_message', pattern: 'x' })).not.toThrow();
    expect(() => assertPatternApplies({ event: 'room_enter' })).not.toThrow();
    expect(failureOf(() => assertPatternApplies({ event: 'room_enter', pattern: 'x' }))).toEqual({
      code: 'invalid', reason: 'rule', field: 'pattern', detail: { problem: 'applies to room_message only (event is room_enter)' },
    });
  });

  it('refuses a URL at an address no delivery may reach, naming url; a host name waits for the delivery', () => {
    expect(failureOf(() => assertUrlReachable('http://0xa9fea9fe/latest', ['127.0.0.0/8']))).toEqual({
      code: 'invalid', reason: 'rule', field: 'url', detail: { problem: 'cannot be delivered to: 169.254.169.254 is a cloud metadata address; refused' },
    });
    expect(failureOf(() => assertUrlReachable('http://127.0.0.1:9/x', []))).toMatchObject({ field: 'url', detail: { problem: expect.stringContaining('loopback') } });
    expect(() => assertUrlReachable('http://127.0.0.1:9/x', ['127.0.0.0/8'])).not.toThrow();
    expect(() => assertUrlReachable('http://localhost:9/x', [])).not.toThrow();
  });

  it('refuses past the limit, naming it', () => {
    expect(() => assertUnderLimit(9, 10)).not.toThrow();
    expect(failureOf(() => assertUnderLimit(10, 10))).toMatchObject({ code: 'invalid', reason: 'rule', detail: { problem: expect.stringContaining('at most 10 webhooks') } });
  });

  it('refuses to change an add-on\'s webhook', () => {
    expect(() => assertNotAddOns({ installationId: null }, { id: 1 })).not.toThrow();
    expect(failureOf(() => assertNotAddOns({ installationId: 2 }, { id: 5 }))).toMatchObject({
      code: 'forbidden', reason: 'not_allowed', detail: { message: expect.stringContaining('Webhook 5 was declared by an installed add-on') },
    });
    // By key, the key is named, never the id behind it.
    const byKey = failureOf(() => assertNotAddOns({ installationId: 2 }, { key: 'echo' }));
    expect(byKey).toMatchObject({ detail: { message: expect.stringMatching(/^Webhook echo was declared by an installed add-on/) } });
  });

  it('names webhooks by id or key in its errors', () => {
    expect(describeWebhookRef({ id: 4 })).toBe('4');
    expect(describeWebhookRef({ key: 'k' })).toBe('k');
    expect(webhookNotFound({ key: 'k' }).error).toEqual({ code: 'not_found', reason: 'webhook_not_found', field: 'webhook', detail: { ref: 'k' } });
    expect(webhookKeyTaken('k', 3).error).toMatchObject({ code: 'conflict', reason: 'rule', field: 'key' });
    expect(webhookKeyTaken('k', 3, true).error.detail?.problem).toContain('an installed add-on');
  });
});
