import { RpcFailure } from '@app/common';
import { ApiError } from '../../shared/api-error';
import { RateLimitState, rateLimitState } from '../../shared/rate-limit/rate-limit';
import { RoomsOutage } from '../../shared/rooms-client';
import { FloodCounter, floodControlledSend } from './flood-control';

const RESET = 1_700_000_100;

/** An in-memory count per room, as Redis keeps it (no I/O). */
function counter(limit: number): FloodCounter & { counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const add = (subject: string, n: number): RateLimitState => {
    counts.set(subject, (counts.get(subject) ?? 0) + n);
    return rateLimitState(limit, counts.get(subject)!, RESET);
  };
  return {
    counts,
    windowSeconds: 60,
    consume: async (subject) => add(String(subject), 1),
    refund: async (subject) => add(String(subject), -1),
  };
}

const room = { name: 'Deploys' };
const outage = (kind: RpcFailure['kind']) => new RoomsOutage(kind, 'rooms.send-notification.v1', true, new RpcFailure(kind, 'no answer'));

describe('floodControlledSend: only accepted sends count against a room', () => {
  let shown: RateLimitState[];
  const show = (s: RateLimitState) => shown.push(s);
  beforeEach(() => { shown = []; });

  it('counts an accepted send and shows the lowered budget', async () => {
    const c = counter(3);
    await expect(floodControlledSend(c, room, show, async () => 'sent')).resolves.toBe('sent');
    expect(c.counts.get('name:deploys')).toBe(1);
    expect(shown.at(-1)).toEqual({ limit: 3, remaining: 2, reset: RESET, exceeded: false });
  });

  it.each([
    ['403 of the rooms service (another room\'s token, a private room)', new ApiError(403, 'This room token may only be used for its own room.')],
    ['404 (no such room)', new ApiError(404, 'Room Deploys not found')],
    ['an error of the gateway before the command (storing a file)', new Error('disk full')],
    ['an outage in which the command certainly did not run', outage('not_sent')],
  ])('gives the count back when the send is refused: %s', async (_, refusal) => {
    const c = counter(3);
    await expect(floodControlledSend(c, room, show, async () => { throw refusal; })).rejects.toBe(refusal);
    expect(c.counts.get('name:deploys')).toBe(0);
    expect(shown.at(-1)).toMatchObject({ remaining: 3 });
  });

  it('keeps the count when the outcome is unknown (the message may exist)', async () => {
    const c = counter(3);
    const unknown = outage('no_answer');
    await expect(floodControlledSend(c, room, show, async () => { throw unknown; })).rejects.toBe(unknown);
    expect(c.counts.get('name:deploys')).toBe(1);
  });

  it('answers 429 past the limit without sending, and without counting it', async () => {
    const c = counter(2);
    const send = jest.fn(async () => 'sent');
    await floodControlledSend(c, room, show, send);
    await floodControlledSend(c, room, show, send);
    for (let i = 0; i < 5; i++) {
      const refused = floodControlledSend(c, room, show, send);
      await expect(refused).rejects.toMatchObject({ status: 429, message: expect.stringMatching(/^Flood control: room Deploys may receive 2 messages per 1 minute; it resets at /) });
    }
    expect(send).toHaveBeenCalledTimes(2);
    expect(c.counts.get('name:deploys')).toBe(2);
    expect(shown.at(-1)).toEqual({ limit: 2, remaining: 0, reset: RESET, exceeded: false });
  });

  it('counts a room by id, or by name whatever its case', async () => {
    const c = counter(3);
    await floodControlledSend(c, { id: 7 }, show, async () => 'sent');
    await floodControlledSend(c, { name: 'DEPLOYS' }, show, async () => 'sent');
    await floodControlledSend(c, { name: 'deploys' }, show, async () => 'sent');
    expect(Object.fromEntries(c.counts)).toEqual({ 'id:7': 1, 'name:deploys': 2 });
  });
});
