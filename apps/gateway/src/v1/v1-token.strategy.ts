import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { AuthenticatedToken, V1_TOKEN_KINDS } from '@app/contracts';
import { Strategy } from 'passport-custom';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { attachToken } from '../shared/auth/request-token';
import { TokenAuthenticator } from '../shared/auth/token-authenticator';
import { AuthFailureLimit, unknownTokensRefusal } from '../shared/rate-limit/auth-failure-limit';
import { retryAfter } from '../shared/rate-limit/rate-limit';
import { RequestRateLimiter } from '../shared/rate-limit/request-rate-limiter';
import { V1Error } from './errors';
import { V1HttpRequest } from './v1-request';

export const V1_TOKEN_STRATEGY = 'v1-token';

/**
 * v1 token authentication (a passport-custom strategy): `auth_token` from the query string or the body, answered from
 * the gateway's token cache, unless the client address made too many failed tries
 * (AuthFailureLimit: 403, as v1's rate limit, before the lookup); then the token's rate limit (shared by every
 * replica, in Redis) and whether its kind may call the method.
 */
@Injectable()
export class V1TokenStrategy extends PassportStrategy(Strategy, V1_TOKEN_STRATEGY) {
  private readonly docs: string;

  constructor(
    private readonly tokens: TokenAuthenticator,
    private readonly limiter: RequestRateLimiter,
    private readonly authFailures: AuthFailureLimit,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    super();
    this.docs = config.PUBLIC_BASE_URL;
  }

  async validate(req: V1HttpRequest): Promise<AuthenticatedToken> {
    const v1 = req.v1!;
    const clear = v1.params!.optional('auth_token');
    // compatibility.md: one text for a missing token and an invalid one, the original's; clients match on it.
    if (!clear) throw new V1Error(401, `Auth token invalid. Please see: ${this.docs}/docs/api/auth`);
    // v2 tokens (personal, room, add-on) are not v1 tokens: unknown here, as v1 tokens are on /v2.
    const verdict = await this.authFailures.authenticate(req.ip, () => this.tokens.authenticate(clear), (t) => V1_TOKEN_KINDS.includes(t.kind), () => this.tokens.cached(clear));
    if (verdict.refused) {
      v1.rateLimit = verdict.refused;
      // 403, as v1's rate limit answers (compatibility.md: the statuses v1 clients know have no 429).
      throw new V1Error(403, unknownTokensRefusal(verdict.refused), retryAfter(verdict.refused));
    }
    const { token } = verdict;
    if (!token) throw new V1Error(401, `Auth token invalid. Please see: ${this.docs}/docs/api/auth`);
    attachToken(req, token);

    const limit = await this.limiter.consume(token.id);
    v1.rateLimit = limit;
    // 403, not 429, as HipChat's v1 answered it (compatibility.md); Retry-After is ours, added.
    if (limit.exceeded) throw new V1Error(403, `You have exceeded the rate limit. See ${this.docs}/docs/api/rate_limiting`, retryAfter(limit));

    if (!(v1.method!.kinds as readonly string[]).includes(token.kind)) {
      const message = `This ${token.kind} auth_token does not have access to ${v1.name}. Please see: ${this.docs}/docs/api/auth`;
      throw new V1Error(v1.authTest ? 401 : 403, message);
    }
    v1.token = token;
    return token;
  }
}
