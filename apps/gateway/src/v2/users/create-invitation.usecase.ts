import { Injectable, Inject } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { generateApiToken, hashApiToken } from '@app/common';
import { Actor, CreateInvitationV1, invitationUrl, UserRef } from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { RoomsClient } from '../../shared/rooms-client';

/**
 * POST /v2/user/{user}/invitation. The link's secret (40 letters and digits, about 238 bits)
 * is made here and only its hash sent to the rooms service, as a session's is: the clear
 * secret exists in this answer alone.
 */
@Injectable()
export class CreateInvitation {
  constructor(private readonly rooms: RoomsClient, @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  async execute(actor: Actor, user: UserRef, trace?: Context): Promise<{ url: string; expires: string; user: { id: number; name: string; email: string } }> {
    const secret = generateApiToken();
    const made = await this.rooms.send(CreateInvitationV1, { actor, user, tokenHash: hashApiToken(secret) }, trace);
    return { url: invitationUrl(this.config.PUBLIC_BASE_URL, secret), expires: made.expires, user: { id: made.user.id, name: made.user.name, email: made.user.email } };
  }
}
