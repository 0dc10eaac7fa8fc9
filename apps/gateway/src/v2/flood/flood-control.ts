import type { RoomRef } from '@app/contracts';
import type { RateLimitState } from '../../shared/rate-limit/rate-limit';
import type { RequestRateLimiter } from '../../shared/rate-limit/request-rate-limiter';
import { RoomsOutage } from '../../shared/rooms-client';

/** The room's count in Redis: taken by V2AccessGuard, given back when the send is refused. */
export type FloodCounter = Pick<RequestRateLimiter, 'refund'>;

/** Per room as the client names it: by id, or by name whatever its case. */
export function floodSubject(room: RoomRef): string {
  return 'id' in room ? `id:${room.id}` : `name:${room.name.toLowerCase()}`;
}

/**
 * The rule: a send counts against its room's budget only if it was accepted. Whatever error
 * answers a send after its count was taken (a body the gateway refuses, the rooms service's
 * 403 or 404, flood control's own 429, the token's 429, a failure of the gateway) gives the
 * count back, but for an outage in which the rooms service may have run the command: its
 * outcome is unknown, the message may exist, so it keeps its count.
 */
export function refundsFloodCount(err: unknown): boolean {
  return !(err instanceof RoomsOutage && !err.nothingApplied);
}

/**
 * A send's count against its room, as V2AccessGuard took it (in the same Redis round trip as
 * the token's count): kept on the request so that V2Filter, which sees every error answer,
 * can give it back. An accepted send never touches it again: it costs nothing more.
 */
export class FloodCount {
  private refunded = false;

  constructor(private readonly counter: FloodCounter, readonly subject: string, private counted: RateLimitState) {}

  /** The budget to show on the answer (X-FloodControl-*): as counted, or after the refund. */
  get state(): RateLimitState {
    return this.counted;
  }

  /**
   * Gives the count back if `err` refused the send (`refundsFloodCount`), once whatever the
   * number of calls (INCRBY -1 on the window's key, atomic in Redis). Never throws: a refund
   * that fails leaves the count taken, as before refunds existed.
   */
  async refuse(err: unknown): Promise<RateLimitState> {
    if (this.refunded || !refundsFloodCount(err)) return this.counted;
    this.refunded = true;
    this.counted = await this.counter.refund(this.subject, this.counted).catch(() => this.counted);
    return this.counted;
  }
}
