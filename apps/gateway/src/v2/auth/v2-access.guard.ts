import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { V2Scope } from '@app/contracts';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../shared/api-error';
import { windowText } from '../../shared/rate-limit/rate-limit';
import { RequestRateLimiter } from '../../shared/rate-limit/request-rate-limiter';
import { PUBLIC_ROUTE, REQUIRED_SCOPES, SESSION_ENOUGH } from '../http/route-options';
import { V2HttpRequest } from '../http/v2-request';
import { v2RateLimitHeaders } from '../http/v2-headers';
import { V2_RATE_LIMITER } from '../v2-di-tokens';

/**
 * After authentication: the token's rate limit (headers on every answer, 429 past it) and the
 * scopes the operation needs (403 naming them). The count lives in Redis, shared by every
 * gateway replica. A room's flood control is not counted here but by the send itself
 * (FloodControl), once the body is read and valid: only accepted sends count.
 */
@Injectable()
export class V2AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(V2_RATE_LIMITER) private readonly limiter: RequestRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    const req = context.switchToHttp().getRequest<V2HttpRequest>();
    const res = context.switchToHttp().getResponse<FastifyReply>();
    const token = req.v2!.token!;

    const anyOf = this.reflector.getAllAndOverride<V2Scope[] | undefined>(REQUIRED_SCOPES, targets) ?? [];
    const sessionEnough = token.kind === 'session' && this.reflector.getAllAndOverride<boolean>(SESSION_ENOUGH, targets) === true;
    const scopes = scopesInForce(token);
    const scoped = anyOf.length === 0 || sessionEnough || anyOf.some((s) => scopes.includes(s));
    const limit = await this.limiter.consume(token.id);
    req.v2!.rateLimit = limit;
    res.headers(v2RateLimitHeaders(limit));
    if (limit.exceeded) {
      throw new ApiError(429, `You have exceeded the rate limit of ${limit.limit} requests per ${this.windowText()}; it resets at ${new Date(limit.reset * 1000).toISOString()}.`);
    }
    if (!scoped) {
      const needed = anyOf.length === 1 ? `the scope ${anyOf[0]}` : `one of the scopes ${anyOf.join(', ')}`;
      const holder = token.kind === 'session' ? 'This session' : 'This token';
      const confined = scopes.length < token.scopes.length ? ' admin_group does not apply to a token confined to one room (an add-on installed in a room).' : '';
      throw new ApiError(403, `${holder} does not have ${needed}, which this operation needs (it has: ${scopes.join(', ') || 'none'}).${confined}`);
    }
    return true;
  }

  private windowText(): string {
    return windowText(this.limiter.windowSeconds);
  }
}

/**
 * The scopes a token acts with. A token confined to one room (an add-on installed in a
 * room, whose descriptor may have asked for anything) acts on that room only: admin_group,
 * the group's administration (users, add-ons, every room's tokens), is not in force for it.
 */
export function scopesInForce(token: { scopes: readonly string[]; roomId: number | null }): string[] {
  return token.roomId === null ? [...token.scopes] : token.scopes.filter((s) => s !== 'admin_group');
}
