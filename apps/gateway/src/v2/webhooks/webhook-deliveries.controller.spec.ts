import { afterAccess } from './webhook-deliveries.controller';

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
