import { Get, Inject } from '@nestjs/common';
import { V2_SCOPES, v2Links } from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { Public, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';

/**
 * The capabilities document, public: add-on frameworks read the API's base URL and the
 * OAuth token URL here (`links.api` without a trailing slash: they append `/room/...`).
 */
@V2Controller('capabilities')
export class CapabilitiesController {
  private readonly document: Record<string, unknown>;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.document = capabilitiesDocument(config.PUBLIC_BASE_URL);
  }

  @Get()
  @Summary('The capabilities document (public)')
  @Public()
  get() { return this.document; }
}

export function capabilitiesDocument(base: string): Record<string, unknown> {
  return {
    name: 'Chat Room Service',
    description: 'A self-hosted chat room service speaking the HipChat v1 and v2 APIs.',
    key: 'chat-room-service',
    vendor: { name: 'Chat Room Service', url: `${base}/` },
    links: { self: v2Links(base).capabilities, api: v2Links(base).api, homepage: `${base}/` },
    capabilities: {
      hipchatApiProvider: { url: `${v2Links(base).api}/`, availableScopes: Object.fromEntries(V2_SCOPES.map((s) => [s, { id: s, name: s }])) },
      oauth2Provider: { tokenUrl: v2Links(base).oauthToken, authorizationUrl: `${base}/users/authorize` },
    },
  };
}
