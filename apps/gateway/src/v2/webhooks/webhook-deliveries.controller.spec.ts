import { WebhookView } from '@app/contracts';
import { ApiError } from '../../shared/api-error';
import { afterAccess, refuseIfDisabled } from './webhook-deliveries.controller';

const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));
const failLater = (ms: number, message: string) => new Promise<never>((_, reject) => setTimeout(() => reject(new Error(message)), ms));

describe('afterAccess: a read made while access is checked', () => {
  it('answers both once both are done, whichever finished first', async () => {
    await expect(afterAccess(later(20, 'granted'), later(1, 'rows'))).resolves.toEqual(['granted', 'rows']);
    await expect(afterAccess(later(1, 'granted'), later(20, 'rows'))).resolves.toEqual(['granted', 'rows']);
  });

  it('runs the two at once: the answer takes the slower, not their sum', async () => {
    // On jest's clock: a wall clock under a loaded CI run measured 160 ms for two 60 ms waits.
    jest.useFakeTimers();
    try {
      let answeredAt: number | undefined;
      const answer = afterAccess(later(60, 'granted'), later(60, 'rows')).then((r) => {
        answeredAt = Date.now();
        return r;
      });
      const started = Date.now();
      await jest.advanceTimersByTimeAsync(60);
      await expect(answer).resolves.toEqual(['granted', 'rows']);
      expect(answeredAt! - started).toBeLessThan(110);
    } finally {
      jest.useRealTimers();
    }
  });

  it('answers a refusal, whatever the read found', async () => {
    await expect(afterAccess(failLater(10, 'Webhook 7 not found'), later(1, 'rows of webhook 7'))).rejects.toThrow('Webhook 7 not found');
  });

  it('answers a refusal, not the read\'s own failure, even when the read failed first', async () => {
    await expect(afterAccess(failLater(20, 'forbidden'), failLater(1, 'dispatcher unreachable'))).rejects.toThrow('forbidden');
  });

  it('answers the read\'s failure once access is granted', async () => {
    await expect(afterAccess(later(10, 'granted'), failLater(1, 'Delivery x not found'))).rejects.toThrow('Delivery x not found');
  });
});

describe('refuseIfDisabled: redeliver and recover of a disabled webhook, decided from the webhook read for access', () => {
  const webhook = (enabled: boolean) => ({
    id: 4, roomId: 12, enabled, disabledReason: enabled ? null : 'every delivery attempt since 2026-01-01T00:00:00.000Z has failed',
  }) as WebhookView;

  it('lets an enabled webhook through', () => {
    expect(() => refuseIfDisabled(webhook(true), 'redeliver')).not.toThrow();
    expect(() => refuseIfDisabled(webhook(true), 'recover')).not.toThrow();
  });

  it('answers 400 naming the webhook, why, and its enable URL', () => {
    const refused = (() => {
      try {
        refuseIfDisabled(webhook(false), 'redeliver');
      } catch (err) {
        return err;
      }
    })() as ApiError;
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused.body()).toEqual({ error: { code: 400, type: 'Bad Request', message:
      'Webhook 4 is disabled (every delivery attempt since 2026-01-01T00:00:00.000Z has failed): '
      + 'enable it first (POST /v2/room/12/webhook/4/enable), then redeliver.' } });
    expect(() => refuseIfDisabled(webhook(false), 'recover')).toThrow(/then recover\.$/);
  });
});
