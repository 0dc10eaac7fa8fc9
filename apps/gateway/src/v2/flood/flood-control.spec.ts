import { RpcFailure } from '@app/common';
import { ApiError } from '../../shared/api-error';
import { RateLimitState, rateLimitState } from '../../shared/rate-limit/rate-limit';
import { RoomsOutage } from '../../shared/rooms-client';
import { FloodCount, FloodCounter, floodSubject, refundsFloodCount } from './flood-control';

const RESET = 1_700_000_100;
/** A send's command (it changes state) that the rooms service did not answer. */
const outage = (kind: RpcFailure['kind']) => new RoomsOutage(kind, 'rooms.send-notification.v1', true, new RpcFailure(kind, 'no answer'));

describe('refundsFloodCount: only accepted sends count against a room', () => {
  it.each([
    ['403 of the rooms service (another room\'s token, a private room)', new ApiError(403, 'This room token may only be used for its own room.')],
    ['404 (no such room)', new ApiError(404, 'Room Deploys not found')],
    ['a body the gateway refuses (400, 413, 415)', new ApiError(413, 'request entity too large')],
    ['flood control\'s own 429', new ApiError(429, 'Flood control: ...')],
    ['a failure of the gateway (storing a file)', new Error('disk full')],
    ['an outage in which the command certainly did not run', outage('not_sent')],
  ])('gives the count back: %s', (_, err) => {
    expect(refundsFloodCount(err)).toBe(true);
  });

  it('keeps the count when the outcome is unknown (the message may exist)', () => {
    expect(refundsFloodCount(outage('no_answer'))).toBe(false);
  });
});

describe('FloodCount', () => {
  /** An in-memory count, as Redis keeps it (no I/O). */
  function counter(limit: number, taken: number): FloodCounter & { count: number; refunds: number } {
    const c = {
      count: taken,
      refunds: 0,
      refund: async (): Promise<RateLimitState> => {
        c.refunds++;
        c.count--;
        return rateLimitState(limit, c.count, RESET);
      },
    };
    return c;
  }

  it('gives a refused send\'s count back once, however often it is refused, and shows the budget after it', async () => {
    const c = counter(3, 1);
    const count = new FloodCount(c, 'name:deploys', rateLimitState(3, 1, RESET));
    expect(count.state).toMatchObject({ remaining: 2 });
    const refused = new ApiError(403, 'private');
    await Promise.all([count.refuse(refused), count.refuse(refused)]);
    await count.refuse(refused);
    expect(c.refunds).toBe(1);
    expect(count.state).toEqual({ limit: 3, remaining: 3, reset: RESET, exceeded: false });
  });

  it('keeps the count of a send whose outcome is unknown', async () => {
    const c = counter(3, 1);
    const count = new FloodCount(c, 'id:7', rateLimitState(3, 1, RESET));
    expect(await count.refuse(outage('no_answer'))).toMatchObject({ remaining: 2 });
    expect(c.refunds).toBe(0);
  });

  it('a refund that fails leaves the count as taken, and does not fail the answer', async () => {
    const count = new FloodCount({ refund: async () => { throw new Error('Redis gone'); } }, 'id:7', rateLimitState(3, 1, RESET));
    await expect(count.refuse(new ApiError(400, 'bad'))).resolves.toMatchObject({ remaining: 2 });
  });
});

describe('floodSubject', () => {
  it('counts a room by id, or by name whatever its case', () => {
    expect([{ id: 7 }, { name: 'DEPLOYS' }, { name: 'deploys' }].map(floodSubject)).toEqual(['id:7', 'name:deploys', 'name:deploys']);
  });
});
