import { RecordSignInThrottledV1 } from '@app/contracts';
import type { RoomsClient } from '../../shared/rooms-client';

/** One line per (what was throttled, account, address) per minute and gateway: a flood of guesses is not a flood of lines. */
const EVERY_MS = 60_000;
/** Bounded: past this many keys the oldest go (a key forgotten early only means one more line). */
const MAX_KEYS = 10_000;
const recorded = new Map<string, number>();

/**
 * The audit log's hook in the sign-in throttle: a refused sign-in is told to the rooms service
 * (RecordSignInThrottledV1), without waiting for it, and never failing the answer (a 429 is
 * due whatever the log does). Never the password: the e-mail address tried, the client's address.
 */
export function recordThrottled(rooms: Pick<RoomsClient, 'send'>, email: string, address: string, scope: 'account' | 'address', now = Date.now()): void {
  const key = `${scope}\u0000${email.toLowerCase()}\u0000${address}`;
  const last = recorded.get(key);
  if (last !== undefined && now - last < EVERY_MS) return;
  recorded.delete(key);
  recorded.set(key, now);
  if (recorded.size > MAX_KEYS) recorded.delete(recorded.keys().next().value as string);
  void rooms.send(RecordSignInThrottledV1, { email: email.slice(0, 254), address: address.slice(0, 64), scope }).catch(() => undefined);
}
