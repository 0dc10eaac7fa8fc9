import { Header, HttpCode, Post } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { IssueAddonTokenV1 } from '@app/contracts';
import { ApiError } from '../../shared/api-error';
import { RoomsClient } from '../../shared/rooms-client';
import { Public, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { RequestTrace } from '../http/v2-request';
import { V2Body } from '../http/validation';
import { v2ErrorOfCommand } from '../v2-errors';
import { toV2AccessToken } from './addons.presenter';
import { requestedScopes, TokenBody, tokenBody } from './addons.schemas';
import { BasicCredentials, ClientCredentials } from './client-credentials';

/**
 * The OAuth token URL of the capabilities document: client credentials only, the client
 * authenticated with HTTP Basic (or client_id/client_secret in the body), JSON or form body.
 */
@V2Controller('oauth')
export class OAuthController {
  constructor(private readonly rooms: RoomsClient) {}

  @Post('token')
  @Summary('Get an add-on access token (OAuth client credentials)')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @Public()
  async token(@V2Body(tokenBody) b: TokenBody, @BasicCredentials() basic: ClientCredentials | null, @RequestTrace() trace?: Context) {
    const client = basic ?? (b.client_id && b.client_secret ? { id: b.client_id, secret: b.client_secret } : null);
    // Credentials no client could have are refused here, as unknown ones are (never a 400 about their form).
    if (!client || !/^[\x21-\x7e]{1,100}$/.test(client.id) || client.secret.length < 1 || client.secret.length > 200) {
      throw v2ErrorOfCommand({ code: 'forbidden', reason: 'oauth_invalid_client' });
    }
    if (b.grant_type !== 'client_credentials') {
      throw new ApiError(400, `unsupported_grant_type: grant_type must be client_credentials (got ${JSON.stringify(b.grant_type ?? null).slice(0, 60)}).`);
    }
    const issued = await this.rooms.send(IssueAddonTokenV1, { clientId: client.id, clientSecret: client.secret, scopes: requestedScopes(b.scope) }, trace);
    return toV2AccessToken(issued);
  }
}
