import { resendRefusal } from './webhook-resend';

describe('resendRefusal: a disabled webhook\'s deliveries are not sent again', () => {
  const reason = 'every delivery attempt since 2026-01-01T00:00:00.000Z has failed (3 failures over 2s; last error: HTTP 500)';

  it('lets an enabled webhook redeliver and recover', () => {
    expect(resendRefusal({ id: 4, enabled: true, disabledReason: null }, 'redeliver', 'POST /v2/room/1/webhook/4/enable')).toBeUndefined();
    expect(resendRefusal({ id: 4, enabled: true, disabledReason: null }, 'recover', 'cli webhook enable 4')).toBeUndefined();
  });

  it('refuses a disabled one, naming the webhook, why it was disabled, how to enable it and what to do then', () => {
    expect(resendRefusal({ id: 4, enabled: false, disabledReason: reason }, 'redeliver', 'POST /v2/room/1/webhook/4/enable'))
      .toBe(`Webhook 4 is disabled (${reason}): enable it first (POST /v2/room/1/webhook/4/enable), then redeliver.`);
    expect(resendRefusal({ id: 4, enabled: false, disabledReason: reason }, 'recover', 'cli webhook enable 4'))
      .toBe(`Webhook 4 is disabled (${reason}): enable it first (cli webhook enable 4), then recover.`);
  });

  it('refuses one disabled without a recorded reason, without an empty parenthesis', () => {
    expect(resendRefusal({ id: 9, enabled: false, disabledReason: null }, 'recover', 'cli webhook enable 9'))
      .toBe('Webhook 9 is disabled: enable it first (cli webhook enable 9), then recover.');
  });
});
