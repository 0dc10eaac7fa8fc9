import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { hashApiToken } from '@app/common';
import { AuthenticatedToken } from '@app/contracts';
import type { Response } from 'express';
import { Strategy } from 'passport-custom';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { RoomsClient } from '../rooms-client/rooms-client';
import { V1Error } from '../v1/errors';
import { V1HttpRequest } from '../v1/v1-request';
import { rateLimitHeaders, rateLimitState } from './rate-limit';

export const V1_TOKEN_STRATEGY = 'v1-token';

/**
 * v1 token authentication: `auth_token` from the query string or form body. One round
 * trip to the rooms service both finds the token and counts the request against its
 * rate window, so the limit holds across any number of gateway replicas.
 */
@Injectable()
export class V1TokenStrategy extends PassportStrategy(Strategy, V1_TOKEN_STRATEGY) {
  constructor(
    private readonly rooms: RoomsClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {
    super();
  }

  async validate(req: V1HttpRequest): Promise<AuthenticatedToken> {
    const v1 = req.v1!;
    const docs = this.config.PUBLIC_BASE_URL.replace(/\/+$/, '');
    const token = v1.params!.optional('auth_token');
    if (!token) throw new V1Error(401, `Auth token not found. Please see: ${docs}/docs/api/auth`);

    const auth = await this.rooms.authenticate({
      tokenHash: hashApiToken(token),
      windowSeconds: this.config.RATE_LIMIT_WINDOW_SECONDS,
    });
    if (!auth.token) throw new V1Error(401, `Auth token invalid. Please see: ${docs}/docs/api/auth`);

    const limit = rateLimitState(this.config.RATE_LIMIT_MAX, auth.count, auth.windowResetsAt);
    (req.res as Response).set(rateLimitHeaders(limit));
    if (limit.exceeded) throw new V1Error(403, `You have exceeded the rate limit. See: ${docs}/docs/api/rate_limiting`);

    if (!(v1.method!.kinds as readonly string[]).includes(auth.token.kind)) {
      const message = `This ${auth.token.kind} auth_token does not have access to ${v1.name}. Please see: ${docs}/docs/api/auth`;
      throw new V1Error(v1.authTest ? 401 : 403, message);
    }
    v1.token = auth.token;
    return auth.token;
  }
}
