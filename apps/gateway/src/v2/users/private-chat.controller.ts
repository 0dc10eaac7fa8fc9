import { Get, HttpCode, Param, Post } from '@nestjs/common';
import { Actor, GetPrivateHistoryV1, SendPrivateMessageV1, UserRef, v2Links } from '@app/contracts';
import { RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, UserRefParam } from '../http/v2-request';
import { V2Resource } from '../http/v2-resource';
import { V2Body, V2Query } from '../http/validation';
import { PrivateHistoryQuery, privateHistoryQuery, PrivateMessageBody, privateMessageBody } from './users.schemas';
import { toV2PrivateMessage } from './users.presenter';

/**
 * One-to-one messages between the token's user and another user. A token without a user
 * (room, add-on) is refused by the rooms service with 403.
 */
@V2Controller('user')
export class PrivateChatController extends V2Resource {
  @Post(':user/message')
  @Summary('Send a private message to a user (stored; no room event)')
  @HttpCode(204)
  @RequireScopes('send_message')
  async send(@CurrentActor() actor: Actor, @UserRefParam() user: UserRef, @V2Body(privateMessageBody) body: PrivateMessageBody): Promise<void> {
    await this.rooms.send(SendPrivateMessageV1, {
      actor, user, message: body.message, messageFormat: body.message_format ?? 'text', notify: body.notify ?? false,
    });
  }

  @Get(':user/history/latest')
  @Summary('Latest private messages with a user')
  @RequireScopes('view_messages')
  async latest(@CurrentActor() actor: Actor, @UserRefParam() ref: UserRef, @Param('user') user: string, @V2Query(privateHistoryQuery) q: PrivateHistoryQuery) {
    const { messages } = await this.rooms.send(GetPrivateHistoryV1, { actor, user: ref, limit: q['max-results'] });
    return {
      items: messages.map((m) => toV2PrivateMessage(m, this.base)),
      startIndex: 0,
      maxResults: q['max-results'],
      links: { self: v2Links(this.base).privateLatestHistory(user) },
    };
  }
}
