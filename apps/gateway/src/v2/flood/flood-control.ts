import { createParamDecorator, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { RoomRef } from '@app/contracts';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../shared/api-error';
import { RateLimitState, windowText } from '../../shared/rate-limit/rate-limit';
import { RequestRateLimiter } from '../../shared/rate-limit/request-rate-limiter';
import { RoomsOutage } from '../../shared/rooms-client';
import { floodHeaders } from '../http/v2-headers';
import { V2HttpRequest } from '../http/v2-request';
import { FLOOD_CONTROL } from '../v2-di-tokens';

/** The room's count in Redis: taken before a send, given back when the send is refused. */
export type FloodCounter = Pick<RequestRateLimiter, 'consume' | 'refund' | 'windowSeconds'>;

/** Shows a send's flood count on its answer (X-FloodControl-*), success or error. */
export type ShowFlood = (state: RateLimitState) => void;

/**
 * The rule: a send counts against its room's budget only if it was accepted.
 *
 * Called once the gateway has checked all it can (token, scopes, body), right before the
 * command: what the rooms service refuses (another room's token, a private room, no such
 * room) is known only from its answer. So the count is taken first, atomically in Redis
 * (one round trip, as before: the limit holds exactly under concurrent sends on every
 * replica), and given back when the send is refused, a 429 of flood control included. Only
 * a send whose outcome is unknown (the rooms service did not answer a command it may have
 * run) keeps its count: the message may exist.
 */
export async function floodControlledSend<T>(
  counter: FloodCounter, room: RoomRef, show: ShowFlood, send: () => Promise<T>,
): Promise<T> {
  const subject = floodSubject(room);
  const counted = await counter.consume(subject);
  if (counted.exceeded) {
    show(await counter.refund(subject, counted));
    const name = 'id' in room ? String(room.id) : room.name;
    throw new ApiError(429, `Flood control: room ${name} may receive ${counted.limit} messages per ${windowText(counter.windowSeconds)}; it resets at ${new Date(counted.reset * 1000).toISOString()}.`);
  }
  show(counted);
  try {
    return await send();
  } catch (err) {
    if (!(err instanceof RoomsOutage && !err.nothingApplied)) show(await counter.refund(subject, counted).catch(() => counted));
    throw err;
  }
}

/** Per room as the client names it: by id, or by name whatever its case. */
export function floodSubject(room: RoomRef): string {
  return 'id' in room ? `id:${room.id}` : `name:${room.name.toLowerCase()}`;
}

/** Flood control of the sends to rooms (routes marked @FloodControlled()). */
@Injectable()
export class FloodControl {
  constructor(@Inject(FLOOD_CONTROL) private readonly counter: RequestRateLimiter) {}

  send<T>(room: RoomRef, show: ShowFlood, send: () => Promise<T>): Promise<T> {
    return floodControlledSend(this.counter, room, show, send);
  }
}

/** Where a handler's flood count goes: the answer's headers, and the request for V2Filter's error answers. */
export const FloodAnswer = createParamDecorator((_: unknown, ctx: ExecutionContext): ShowFlood => {
  const req = ctx.switchToHttp().getRequest<V2HttpRequest>();
  const res = ctx.switchToHttp().getResponse<FastifyReply>();
  return (state) => {
    req.v2!.flood = state;
    res.headers(floodHeaders(state));
  };
});
