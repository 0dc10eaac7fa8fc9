import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import { AuthenticatedToken, V2_TOKEN_KINDS } from '@app/contracts';
import { Strategy } from 'passport-custom';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import { attachToken } from '../../shared/auth/request-token';
import { TokenAuthenticator } from '../../shared/auth/token-authenticator';
import { AuthenticationVerdict, AuthFailureLimit, tooManyUnknownTokens } from '../../shared/rate-limit/auth-failure-limit';
import { PUBLIC_ROUTE } from '../http/route-options';
import { V2HttpRequest } from '../http/v2-request';
import { CSRF_HEADER, csrfTokenMatches, needsCsrfToken, SESSION_COOKIE, sessionSecretOf } from '../session/session-cookie';

export const V2_TOKEN_STRATEGY = 'v2-token';

/** `Authorization: Bearer <token>`, else `auth_token` in the query string; an empty value is no token. */
export function presentedToken(req: Pick<V2HttpRequest, 'headers' | 'query'>): string | undefined {
  const header = req.headers.authorization;
  if (typeof header === 'string') {
    const bearer = /^\s*Bearer\s+(\S+)\s*$/i.exec(header);
    if (bearer) return bearer[1];
  }
  const query = (req.query as Record<string, unknown> | undefined)?.auth_token;
  const value = Array.isArray(query) ? query.find((v) => typeof v === 'string' && v !== '') : query;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * v2 token authentication (a passport-custom strategy): personal, room and add-on tokens,
 * answered from the gateway's token cache. v1 tokens are not v2 tokens: 401, as for an
 * unknown one. Without a token, the web console's session cookie: a session, resolved and
 * cached as tokens are, acting as its user; a request it authenticates that may change
 * state must carry the session's CSRF token (403 otherwise). A token, when present, wins
 * and needs no CSRF token (a browser never adds one by itself); a session secret is never
 * taken as a token. An unknown token or an ended session counts against the client address
 * (AuthFailureLimit): past AUTH_FAILURE_RATE_LIMIT_*, 429 before the lookup.
 */
@Injectable()
export class V2TokenStrategy extends PassportStrategy(Strategy, V2_TOKEN_STRATEGY) {
  private readonly docs: string;

  constructor(
    private readonly tokens: TokenAuthenticator,
    private readonly authFailures: AuthFailureLimit,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    super();
    this.docs = `${config.PUBLIC_BASE_URL}/docs/api/v2`;
  }

  async validate(req: V2HttpRequest): Promise<AuthenticatedToken> {
    const clear = presentedToken(req);
    if (!clear) return this.validateSession(req);
    const token = acceptedToken(req, await this.authFailures.authenticate(req.ip, () => this.tokens.authenticate(clear), (t) => V2_TOKEN_KINDS.includes(t.kind), () => this.tokens.cached(clear)));
    if (!token) {
      throw new ApiError(401, `Invalid OAuth session: the token is unknown, revoked or expired. See ${this.docs}`);
    }
    attachToken(req, token);
    req.v2 = { ...req.v2, token };
    return token;
  }

  private async validateSession(req: V2HttpRequest): Promise<AuthenticatedToken> {
    const secret = sessionSecretOf(req.headers.cookie);
    if (!secret) {
      throw new ApiError(401, `Authenticated requests require a token (Authorization: Bearer <token> or auth_token=<token>) or a signed-in session (the ${SESSION_COOKIE} cookie of POST /v2/session). See ${this.docs}`);
    }
    const token = acceptedToken(req, await this.authFailures.authenticate(req.ip, () => this.tokens.authenticate(secret), (t) => t.kind === 'session', () => this.tokens.cached(secret)));
    if (!token) {
      throw new ApiError(401, `Your session has ended (signed out, expired, or the password was changed): sign in again with POST /v2/session. See ${this.docs}`);
    }
    attachToken(req, token);
    if (needsCsrfToken(req.method) && !csrfTokenMatches(secret, req.headers[CSRF_HEADER])) {
      throw new ApiError(403, `A request authenticated by the session cookie that changes state must carry the X-CSRF-Token header with the session's csrf_token (see GET /v2/session); it was ${req.headers[CSRF_HEADER] === undefined ? 'missing' : 'wrong'}.`);
    }
    req.v2 = { ...req.v2, token, sessionSecret: secret };
    return token;
  }
}

/**
 * What v2 makes of AuthFailureLimit's verdict: the token found, null for none; 429 (with the
 * failures' count in X-Ratelimit-*) for an address refused.
 */
export function acceptedToken<T>(req: V2HttpRequest, verdict: AuthenticationVerdict<T>): T | null {
  if (verdict.refused) {
    req.v2 = { ...req.v2, rateLimit: verdict.refused };
    throw tooManyUnknownTokens(verdict.refused);
  }
  return verdict.token;
}

/** Runs the strategy on every v2 route but the public ones. */
@Injectable()
export class V2AuthGuard extends AuthGuard(V2_TOKEN_STRATEGY) {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    return super.canActivate(context);
  }

  // The strategy's own error (its status and message) is the answer, not passport's generic 401.
  override handleRequest<T>(err: unknown, user: T): T {
    if (err) throw err;
    if (!user) throw new ApiError(401, 'Authenticated requests require a token.');
    return user;
  }
}
