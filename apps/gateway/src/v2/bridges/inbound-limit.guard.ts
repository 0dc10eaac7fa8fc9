import { createHash } from 'node:crypto';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../shared/api-error';
import { retryAfter, windowText } from '../../shared/rate-limit/rate-limit';
import { RequestRateLimiter } from '../../shared/rate-limit/request-rate-limiter';
import { FloodCount } from '../flood/flood-control';
import { floodHeaders } from '../http/v2-headers';
import { pathParam, V2HttpRequest } from '../http/v2-request';
import { FLOOD_CONTROL } from '../v2-di-tokens';

/**
 * A bridge's inbound posts, counted per bridge with the flood control's budget (after the
 * client address's count, which every public route has): what one channel sends into a
 * room is held to what one room may receive. The gateway knows the bridge only by its key,
 * so the count is kept under the key's hash (never the key itself, a credential, in Redis).
 * A refused post gives its count back (V2Filter), as a refused send does.
 */
@Injectable()
export class InboundLimitGuard implements CanActivate {
  constructor(@Inject(FLOOD_CONTROL) private readonly flood: RequestRateLimiter) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<V2HttpRequest>();
    const res = context.switchToHttp().getResponse<FastifyReply>();
    const subject = `bridge-inbound:${createHash('sha256').update(pathParam(context, 'key')).digest('hex').slice(0, 32)}`;
    const count = await this.flood.consume(subject);
    req.v2 = { ...req.v2, flood: new FloodCount(this.flood, subject, count) };
    res.headers(floodHeaders(count));
    if (count.exceeded) {
      throw new ApiError(429, `Flood control: this bridge may post ${count.limit} messages per ${windowText(this.flood.windowSeconds)}; it resets at ${new Date(count.reset * 1000).toISOString()}.`,
        retryAfter(count));
    }
    return true;
  }
}
