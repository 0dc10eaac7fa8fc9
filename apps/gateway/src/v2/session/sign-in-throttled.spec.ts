import { createLogger } from '@app/common';
import { RecordSignInThrottledV1 } from '@app/contracts';
import type { RoomsClient } from '../../shared/rooms-client';
import { SignInThrottled } from './sign-in-throttled';

describe('where a closed sign-in throttle is told', () => {
  const event = { by: 'accountAddress' as const, limit: 5, windowSeconds: 900, retryAfterSeconds: 800, email: 'Ada@example.com', address: '203.0.113.7' };

  it('tells the audit log the account tried, the budget and the address (never a password), without waiting', () => {
    const send = jest.fn().mockResolvedValue({});
    new SignInThrottled(createLogger('test', 'silent'), { send } as unknown as RoomsClient).record(event);
    expect(send).toHaveBeenCalledWith(RecordSignInThrottledV1, { email: 'Ada@example.com', address: '203.0.113.7', scope: 'account_address' });
  });

  it('does not fail the refusal when the rooms service does not answer', async () => {
    const send = jest.fn().mockRejectedValue(new Error('no answer'));
    expect(() => new SignInThrottled(createLogger('test', 'silent'), { send } as unknown as RoomsClient).record({ ...event, by: 'account' })).not.toThrow();
    await new Promise((r) => setImmediate(r));
    expect(send).toHaveBeenCalledWith(RecordSignInThrottledV1, expect.objectContaining({ scope: 'account' }));
  });
});
