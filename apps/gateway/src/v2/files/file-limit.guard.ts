import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { AuthenticatedToken } from '@app/contracts';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../shared/api-error';
import { TokenAuthenticator } from '../../shared/auth/token-authenticator';
import { AuthFailureLimit } from '../../shared/rate-limit/auth-failure-limit';
import { addressKey } from '../../shared/rate-limit/client-address';
import { RateLimitState, retryAfter, windowText } from '../../shared/rate-limit/rate-limit';
import { RequestRateLimiter } from '../../shared/rate-limit/request-rate-limiter';
import { acceptedToken, presentedToken } from '../auth/v2-token.strategy';
import { V2HttpRequest } from '../http/v2-request';
import { v2RateLimitHeaders } from '../http/v2-headers';
import { sessionSecretOf } from '../session/session-cookie';
import { FILE_RATE_LIMITER, PUBLIC_RATE_LIMITER } from '../v2-di-tokens';

/**
 * GET /files/<key>, counted before it is served: a request with a token, or the cookie of a
 * session that lasts, by that token's files budget (FILE_RATE_LIMIT_*: apart from its /v2
 * requests, as a private room's images are fetched at every showing); one without (a public
 * room's file, a signed link, an ended session's cookie) by its client address's, as the
 * routes served without a token are (PUBLIC_RATE_LIMIT_*). X-Ratelimit-* on every answer that
 * counted, 429 with Retry-After past the limit. A token is first asked of AuthFailureLimit: an
 * unknown one counts against the address (ServeFile then answers its 401), and an address past
 * that limit is refused before any lookup.
 *
 * The token is looked up here and again by ServeFile: the second lookup is answered by the token
 * cache (an unknown token's too, for a few seconds), so a file costs no more broker round trips.
 */
@Injectable()
export class FileLimitGuard implements CanActivate {
  constructor(
    private readonly tokens: TokenAuthenticator,
    private readonly authFailures: AuthFailureLimit,
    @Inject(FILE_RATE_LIMITER) private readonly limiter: RequestRateLimiter,
    @Inject(PUBLIC_RATE_LIMITER) private readonly publicLimiter: RequestRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<V2HttpRequest>();
    const res = context.switchToHttp().getResponse<FastifyReply>();
    const token = await this.holder(req);
    // An unknown token: ServeFile answers 401, as everywhere in v2; it counted against the address.
    if (token === undefined) return true;
    const limit = token ? await this.limiter.consume(token.id) : await this.publicLimiter.consume(addressKey(req.ip));
    req.v2 = { ...req.v2, rateLimit: limit };
    res.headers(v2RateLimitHeaders(limit));
    if (limit.exceeded) throw tooMany(limit, token ? this.limiter : this.publicLimiter, token !== null);
    return true;
  }

  /**
   * Whose request it is: a token's (a presented one, else a lasting session's), null for nobody
   * (no credentials, or an ended session's cookie: ServeFile serves it as nobody), undefined
   * for a token that is unknown here.
   */
  private async holder(req: V2HttpRequest): Promise<AuthenticatedToken | null | undefined> {
    const clear = presentedToken(req);
    if (clear) {
      // Every kind ServeFile takes (v1 tokens too, where v1 shows these links); a session's secret is not a token.
      const verdict = await this.authFailures.authenticate(req.ip, () => this.tokens.authenticate(clear), (t) => t.kind !== 'session', () => this.tokens.cached(clear));
      return acceptedToken(req, verdict) ?? undefined;
    }
    const secret = sessionSecretOf(req.headers.cookie);
    const session = secret ? await this.tokens.authenticate(secret) : null;
    return session?.kind === 'session' ? session : null;
  }
}

function tooMany(limit: RateLimitState, limiter: RequestRateLimiter, byToken: boolean): ApiError {
  const whose = byToken ? 'You have' : 'This address has';
  const what = byToken ? ' for files' : ' for files asked without credentials';
  return new ApiError(429, `${whose} exceeded the rate limit of ${limit.limit} requests per ${windowText(limiter.windowSeconds)}${what}; it resets at ${new Date(limit.reset * 1000).toISOString()}.`,
    retryAfter(limit));
}
