import { Inject, Injectable } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { SignOutV1 } from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import { TokenAuthenticator } from '../../shared/auth/token-authenticator';
import { RoomsClient } from '../../shared/rooms-client';
import type { RequestOrigin } from '../http/v2-request';
import { SessionAnswer } from './session-answer.interceptor';
import { clearedSessionCookie, csrfTokenMatches, isSecureContext } from './session-cookie';

/**
 * DELETE /v2/session: ends the session of the cookie (its CSRF token required, as for any
 * change a cookie authenticates) on every gateway replica before answering, and clears
 * the cookie. Without a live session there is nothing to end: the cookie is cleared all
 * the same (204), so a page can always sign out.
 */
@Injectable()
export class SignOut {
  constructor(
    private readonly rooms: RoomsClient,
    private readonly tokens: TokenAuthenticator,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async execute(presented: { secret?: string; csrf?: string }, origin: RequestOrigin, trace?: Context): Promise<SessionAnswer<void>> {
    const token = presented.secret ? await this.tokens.authenticate(presented.secret) : null;
    if (token?.kind === 'session') {
      if (!csrfTokenMatches(presented.secret!, presented.csrf)) {
        throw new ApiError(403, `Signing out with the session cookie must carry the X-CSRF-Token header with the session's csrf_token; it was ${presented.csrf === undefined ? 'missing' : 'wrong'}.`);
      }
      await this.rooms.send(SignOutV1, { sessionId: token.id }, trace);
      this.tokens.revoked(token.id);
    }
    return { body: undefined, setCookie: clearedSessionCookie(isSecureContext(this.config.PUBLIC_BASE_URL, Boolean(this.config.TLS_CERT_FILE), origin.protocol)) };
  }
}
