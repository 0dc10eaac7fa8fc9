import { Get, Inject, Res } from '@nestjs/common';
import { Actor, AuthenticatedToken, PrivateChatUser, PrivateMessageSentV1Payload, UserRef } from '@app/contracts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { OpenUserStream } from '../../live/open-user-stream.usecase';
import { sseSink } from '../../live/sse-sink';
import { EventStream, RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, CurrentToken, UserRefParam } from '../http/v2-request';
import { toV2PrivateMessage } from '../users/users.presenter';

const person = (u: PrivateChatUser) => ({ id: u.id, name: u.name, mention_name: u.mentionName });

/** The `data` of a `private_message` event: the message as GET /v2/user/{user}/history/latest lists it, and who it is from and to. */
export const privateMessageData = (payload: PrivateMessageSentV1Payload, base: string): string => JSON.stringify({
  message: toV2PrivateMessage(payload.message, base),
  from: person(payload.message.from),
  to: person(payload.to),
});

/**
 * A person's live stream as Server-Sent Events (our extension, for the console's sidebar and
 * private chats): for the person themselves, with their session or a token with view_messages.
 * Refusals come before the stream starts, as JSON with their status.
 */
@V2Controller('user')
export class UserEventsController {
  private readonly base: string;

  constructor(private readonly open: OpenUserStream, @Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.base = config.PUBLIC_BASE_URL;
  }

  @Get(':user/events')
  @Summary('A person\'s live events: their rooms\' messages and their private messages (text/event-stream, our extension)')
  @RequireScopes('view_messages')
  @EventStream({
    description: 'Our extension. The person\'s own stream ({user}: their id, e-mail or @mention_name; anyone else, group admins included, 403; a token of no user, 403). ' +
      'Events, as Server-Sent Events with no `id:`: `room_message`, `room_notification` and `room_file_upload` (`data:` the item the room\'s stream ' +
      '(GET /v2/room/{room}/events) sends, which names the room) for the rooms of the person\'s chats (GET /v2/user/{user}/chats) as they were when it ' +
      'connected, and the rooms they enter or are made a member of while connected (a room they create, or open for the first time with ' +
      'PUT /v2/room/{room}/read, joins at the next connection); `private_message` (`data:` `{"message": <an item of GET /v2/user/{user}/history/latest>, "from": {id, name, ' +
      'mention_name}, "to": {id, name, mention_name}}`) for every private message from or to the person. No resume: there is no Last-Event-ID; a client ' +
      'that (re)connects reads GET /v2/user/{user}/chats for what it missed. A room the person loses access to (removed from it, made private) leaves the ' +
      'stream at once: nothing said there after the loss is sent. A comment line (`:`) every LIVE_HEARTBEAT_SECONDS (15) keeps an idle connection open. ' +
      'The stream ends with an `error` event, `{"error": {"code", "message"}}`: `token_revoked` (the session signed out, or the token revoked), ' +
      '`slow_client` (a client that leaves LIVE_MAX_PENDING_BYTES unread), or `events_missed` (the message broker was away: reconnect and read the chats ' +
      'again). Refusals before the stream starts (401, 403, 404, 503) are JSON error bodies.',
    headers: z.object({}),
    query: z.object({}),
  })
  async events(@UserRefParam() user: UserRef, @CurrentActor() actor: Actor, @CurrentToken() token: AuthenticatedToken, @Res() reply: FastifyReply): Promise<void> {
    const start = await this.open.execute({ actor, user, tokenId: token.id, presentPrivate: (p) => privateMessageData(p, this.base) });
    start.attach(sseSink(reply));
  }
}
