import { Get, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { Actor, GetPrivateHistoryV1, SendPrivateMessageV1 } from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { RoomsClient } from '../../shared/rooms-client';
import { RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor } from '../http/v2-request';
import { V2Body, V2Query } from '../http/validation';
import { PrivateHistoryQuery, privateHistoryQuery, PrivateMessageBody, privateMessageBody } from './users.schemas';
import { toV2PrivateMessage } from './users.presenter';
import { userRefOf } from './users.controller';

/**
 * One-to-one messages between the token's user and another user. A token without a user
 * (room, add-on) is refused by the rooms service with 403.
 */
@V2Controller('user')
export class PrivateChatController {
  private readonly base: string;

  constructor(private readonly rooms: RoomsClient, @Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.base = config.PUBLIC_BASE_URL;
  }

  @Post(':user/message')
  @Summary('Send a private message to a user (stored; no room event)')
  @HttpCode(204)
  @RequireScopes('send_message')
  async send(@CurrentActor() actor: Actor, @Param('user') user: string, @V2Body(privateMessageBody) body: PrivateMessageBody): Promise<void> {
    await this.rooms.send(SendPrivateMessageV1, {
      actor, user: userRefOf(user), message: body.message, messageFormat: body.message_format ?? 'text', notify: body.notify ?? false,
    });
  }

  @Get(':user/history/latest')
  @Summary('Latest private messages with a user')
  @RequireScopes('view_messages')
  async latest(@CurrentActor() actor: Actor, @Param('user') user: string, @V2Query(privateHistoryQuery) q: PrivateHistoryQuery) {
    const { messages } = await this.rooms.send(GetPrivateHistoryV1, { actor, user: userRefOf(user), limit: q['max-results'] });
    return {
      items: messages.map((m) => toV2PrivateMessage(m, this.base)),
      startIndex: 0,
      maxResults: q['max-results'],
      links: { self: `${this.base}/v2/user/${encodeURIComponent(user)}/history/latest` },
    };
  }
}
