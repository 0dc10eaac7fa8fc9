import { Inject, Injectable } from '@nestjs/common';
import { generateApiToken, hashApiToken, SecretBox, secretPurpose } from '@app/common';
import { ADDON_TOKEN_TTL_SECONDS, commandFailure, IssueAddonTokenV1, ReplyOf, RequestOf, scopesInForce } from '@app/contracts';
import { DataSource } from 'typeorm';
import { RoomsConfig } from '../../config';
import { GROUP_ID, grantScopes, secretMatches } from '../addon-rules';
import { AddonRepository } from '../addon.repository';
import { ROOMS_CONFIG } from '../../shared/infrastructure.module';

// Compared against when the client is unknown, so both failures take the same time.
const NO_SECRET = 'no-such-client-no-such-secret-00000000000';

/**
 * OAuth client credentials: the client's secret checked in constant time, then an add-on
 * token (its hash stored, the clear token answered once) with the scopes granted, acting
 * only on the installation's room when it has one, labelled with the add-on's name.
 */
@Injectable()
export class IssueAddonToken {
  constructor(
    private readonly db: DataSource,
    private readonly addons: AddonRepository,
    @Inject(ROOMS_CONFIG) private readonly config: RoomsConfig,
    private readonly box: SecretBox,
  ) {}

  async execute(cmd: RequestOf<typeof IssueAddonTokenV1>): Promise<ReplyOf<typeof IssueAddonTokenV1>> {
    const client = await this.addons.findClient(this.db.manager, cmd.clientId);
    // Kept sealed (not hashed): the dispatchers sign the add-on's webhooks with it.
    const stored = client ? this.box.reveal(client.secret, secretPurpose.oauthClient(client.id)) : NO_SECRET;
    const matches = secretMatches(cmd.clientSecret, stored);
    if (!client || !matches) throw commandFailure('forbidden', 'oauth_invalid_client');
    const grant = grantScopes(cmd.scopes, client.allowedScopes);
    if (!grant.ok) throw commandFailure('invalid', 'oauth_invalid_scope', 'scope', { scope: grant.scope, problem: grant.problem });
    const accessToken = generateApiToken();
    await this.addons.insertToken(this.db.manager, {
      tokenHash: hashApiToken(accessToken), label: client.name, installationId: client.installationId, roomId: client.roomId,
      scopes: grant.scopes, expiresInSeconds: ADDON_TOKEN_TTL_SECONDS,
    });
    // Stored as granted (a 403 can then say why admin_group is refused); answered as it acts.
    const scopes = scopesInForce({ scopes: grant.scopes, roomId: client.roomId });
    return { accessToken, expiresIn: ADDON_TOKEN_TTL_SECONDS, scopes, groupId: GROUP_ID, groupName: this.config.GROUP_NAME };
  }
}
