import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { parseRoomRef, scopesInForce, V2Scope } from '@app/contracts';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../shared/api-error';
import { addressKey } from '../../shared/rate-limit/client-address';
import { retryAfter, windowText } from '../../shared/rate-limit/rate-limit';
import { RequestRateLimiter } from '../../shared/rate-limit/request-rate-limiter';
import { FloodCount, floodSubject } from '../flood/flood-control';
import { FLOOD_CONTROLLED, PUBLIC_ROUTE, REQUIRED_SCOPES, SESSION_ENOUGH } from '../http/route-options';
import { V2HttpRequest } from '../http/v2-request';
import { floodHeaders, v2RateLimitHeaders } from '../http/v2-headers';
import { FLOOD_CONTROL, PUBLIC_RATE_LIMITER, V2_RATE_LIMITER } from '../v2-di-tokens';

/**
 * On the routes served without a token, the client address's rate limit (PUBLIC_RATE_LIMIT_*).
 * After authentication: the token's rate limit (headers on every answer, 429 past it), the
 * scopes the operation needs (403 naming them), and on sends the room's flood control. Both
 * counts live in Redis, shared by every gateway replica, and are taken in one round trip.
 * Only accepted sends may count against a room, but what the rooms service refuses is known
 * only later: a refused send's count is given back by V2Filter (FloodCount, src/v2/flood/).
 */
@Injectable()
export class V2AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(V2_RATE_LIMITER) private readonly limiter: RequestRateLimiter,
    @Inject(FLOOD_CONTROL) private readonly flood: RequestRateLimiter,
    @Inject(PUBLIC_RATE_LIMITER) private readonly publicLimiter: RequestRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const req = context.switchToHttp().getRequest<V2HttpRequest>();
    const res = context.switchToHttp().getResponse<FastifyReply>();
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return this.limitAddress(req, res);
    const token = req.v2!.token!;

    const anyOf = this.reflector.getAllAndOverride<V2Scope[] | undefined>(REQUIRED_SCOPES, targets) ?? [];
    const sessionEnough = token.kind === 'session' && this.reflector.getAllAndOverride<boolean>(SESSION_ENOUGH, targets) === true;
    const scopes = scopesInForce(token);
    const scoped = anyOf.length === 0 || sessionEnough || anyOf.some((s) => scopes.includes(s));
    const raw = String((req.params as Record<string, string>).room ?? '');
    const subject = scoped && this.reflector.getAllAndOverride<boolean>(FLOOD_CONTROLLED, targets) ? floodSubject(parseRoomRef(raw)) : null;
    // Both counts in one Redis round trip (ioredis pipelines what is sent in the same tick):
    // an accepted send pays no more for flood control than for its rate limit.
    const [limit, count] = await Promise.all([
      this.limiter.consume(token.id),
      subject ? this.flood.consume(subject) : null,
    ]);
    req.v2!.rateLimit = limit;
    // Before anything can refuse the send (the token's 429 below included), so that V2Filter gives it back.
    if (subject && count) req.v2!.flood = new FloodCount(this.flood, subject, count);
    res.headers(v2RateLimitHeaders(limit));
    if (limit.exceeded) {
      throw new ApiError(429, `You have exceeded the rate limit of ${limit.limit} requests per ${this.windowText()}; it resets at ${new Date(limit.reset * 1000).toISOString()}.`,
        retryAfter(limit));
    }
    if (!scoped) {
      const needed = anyOf.length === 1 ? `the scope ${anyOf[0]}` : `one of the scopes ${anyOf.join(', ')}`;
      const holder = token.kind === 'session' ? 'This session' : 'This token';
      const confined = scopes.length < token.scopes.length ? ' admin_group does not apply to a token confined to one room (an add-on installed in a room).' : '';
      throw new ApiError(403, `${holder} does not have ${needed}, which this operation needs (it has: ${scopes.join(', ') || 'none'}).${confined}`);
    }
    if (count) {
      res.headers(floodHeaders(count));
      if (count.exceeded) {
        throw new ApiError(429, `Flood control: room ${raw} may receive ${count.limit} messages per ${windowText(this.flood.windowSeconds)}; it resets at ${new Date(count.reset * 1000).toISOString()}.`,
          retryAfter(count));
      }
    }
    return true;
  }

  /**
   * A route served without a token: its client address's count instead, under the same
   * headers (the address as req.ip gives it: X-Forwarded-For only from TRUST_PROXY proxies).
   */
  private async limitAddress(req: V2HttpRequest, res: FastifyReply): Promise<boolean> {
    const limit = await this.publicLimiter.consume(addressKey(req.ip));
    req.v2 = { ...req.v2, rateLimit: limit };
    res.headers(v2RateLimitHeaders(limit));
    if (limit.exceeded) {
      throw new ApiError(429, `This address has exceeded the rate limit of ${limit.limit} requests per ${windowText(this.publicLimiter.windowSeconds)} on the routes served without a token; it resets at ${new Date(limit.reset * 1000).toISOString()}.`,
        retryAfter(limit));
    }
    return true;
  }

  private windowText(): string {
    return windowText(this.limiter.windowSeconds);
  }
}

