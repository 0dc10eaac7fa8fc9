import { RecordSignInThrottledV1 } from '@app/contracts';
import { recordThrottled } from './throttle-audit';

describe('the sign-in throttle\'s audit hook', () => {
  it('tells the rooms service once a minute per account and address, never the password', () => {
    const send = jest.fn().mockResolvedValue({});
    recordThrottled({ send }, 'Ada@example.com', '10.0.0.7', 'address', 1_000);
    recordThrottled({ send }, 'ada@example.com', '10.0.0.7', 'address', 30_000);
    recordThrottled({ send }, 'ada@example.com', '10.0.0.8', 'address', 30_000);
    recordThrottled({ send }, 'Ada@example.com', '10.0.0.7', 'address', 62_000);
    expect(send).toHaveBeenCalledTimes(3);
    expect(send).toHaveBeenNthCalledWith(1, RecordSignInThrottledV1, { email: 'Ada@example.com', address: '10.0.0.7', scope: 'address' });
  });

  it('does not fail the refusal when the rooms service does not answer', async () => {
    const send = jest.fn().mockRejectedValue(new Error('no answer'));
    expect(() => recordThrottled({ send }, 'bea@example.com', '10.0.0.9', 'account', 5_000)).not.toThrow();
    await new Promise((r) => setImmediate(r));
  });
});
