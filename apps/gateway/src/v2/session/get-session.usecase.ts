import { Inject, Injectable } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { AuthenticatedToken, GetUserV1 } from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { ApiError } from '../../shared/api-error';
import { RoomsClient } from '../../shared/rooms-client';
import { toSessionBody } from './session.presenter';

/** GET /v2/session: who is signed in, for the console's page (401 when a token, not the cookie, authenticated the request). */
@Injectable()
export class GetSession {
  private readonly docs: string;

  constructor(private readonly rooms: RoomsClient, @Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.docs = `${config.PUBLIC_BASE_URL}/docs/api/v2`;
  }

  async execute(session: { token: AuthenticatedToken; secret: string } | undefined, trace?: Context) {
    if (!session) throw new ApiError(401, `No session: this request was authenticated by a token, not the session cookie. See ${this.docs}`);
    const { user } = await this.rooms.send(GetUserV1, { user: { id: session.token.userId! } }, trace);
    return toSessionBody(user, session.secret, session.token.expires ?? '');
  }
}
