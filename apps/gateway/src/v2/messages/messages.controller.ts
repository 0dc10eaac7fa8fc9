import { Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  Actor, GetHistoryV2, GetMessageV1, NotificationBody, notificationBodySchema, notificationCommand, RoomRef,
  SendMessageV1, SendNotificationV1, v2Links,
} from '@app/contracts';
import { ApiError } from '../../shared/api-error';
import { pageOf, pageResponse, probeLimit, splitProbe } from '../http/pagination';
import { FloodControlled, RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, RoomRefParam } from '../http/v2-request';
import { V2Resource } from '../http/v2-resource';
import { V2Body, V2Query } from '../http/validation';
import {
  historyBounds, HistoryQuery, historyQuery, LatestHistoryQuery, latestHistoryQuery, MessageBody, messageBody,
} from './messages.schemas';
import { formatMessageDate, toV2HistoryItem } from './messages.presenter';

/** A room's messages: a user's message, a notification, the history and one message of it. */
@V2Controller('room')
export class MessagesController extends V2Resource {
  /** Sent as the token's user. */
  @Post(':room/message')
  @Summary('Send a message as the user of the token (room_message)')
  @HttpCode(201)
  @RequireScopes('send_message')
  @FloodControlled()
  async message(@RoomRefParam() room: RoomRef, @V2Body(messageBody) body: MessageBody, @CurrentActor() actor: Actor) {
    const sent = await this.rooms.send(SendMessageV1, { actor, room, message: body.message });
    return { id: sent.id, timestamp: formatMessageDate(sent.date, 'UTC') };
  }

  @Post(':room/notification')
  @Summary('Send a room notification (room_notification)')
  @HttpCode(204)
  @RequireScopes('send_notification')
  @FloodControlled()
  async notification(@RoomRefParam() room: RoomRef, @V2Body(notificationBodySchema) body: NotificationBody, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(SendNotificationV1, notificationCommand(actor, room, body));
  }

  /** Newest first from `date` back (reverse=true, the default, lists each page oldest first). */
  @Get(':room/history')
  @Summary('The history of a room')
  @RequireScopes('view_messages')
  async history(@RoomRefParam() ref: RoomRef, @Param('room') room: string, @V2Query(historyQuery) q: HistoryQuery, @CurrentActor() actor: Actor, @Query() raw: Record<string, unknown>) {
    const bounds = historyBounds(q);
    if ('param' in bounds) throw new ApiError(400, `${bounds.param}: ${bounds.problem}`);
    const page = pageOf(q);
    const { messages } = await this.rooms.send(GetHistoryV2, {
      room: ref, actor, ...bounds, offset: page.startIndex, limit: probeLimit(page), details: true,
    });
    const { items, hasMore } = splitProbe(messages.reverse(), page);
    if (q.reverse) items.reverse();
    return pageResponse(items.map((m) => toV2HistoryItem(m, q.timezone, this.base)), page, hasMore, v2Links(this.base).history(room), raw);
  }

  /** The newest messages, oldest first, none older than `not-before`. */
  @Get(':room/history/latest')
  @Summary('The latest messages of a room')
  @RequireScopes('view_messages')
  async latest(@RoomRefParam() ref: RoomRef, @Param('room') room: string, @V2Query(latestHistoryQuery) q: LatestHistoryQuery, @CurrentActor() actor: Actor) {
    const maxResults = q['max-results'];
    const { messages } = await this.rooms.send(GetHistoryV2, {
      room: ref, actor, recentOnly: false, offset: 0, limit: maxResults, details: true,
      ...(q['not-before'] ? { notBefore: q['not-before'] } : {}),
    });
    const items = messages.map((m) => toV2HistoryItem(m, q.timezone, this.base));
    return { items, startIndex: 0, maxResults, links: { self: v2Links(this.base).latestHistory(room) } };
  }

  @Get(':room/history/:message')
  @Summary('One message of the history of a room')
  @RequireScopes('view_messages')
  async one(@RoomRefParam() room: RoomRef, @Param('message') id: string, @V2Query(latestHistoryQuery.pick({ timezone: true })) q: Pick<LatestHistoryQuery, 'timezone'>, @CurrentActor() actor: Actor) {
    const { message } = await this.rooms.send(GetMessageV1, { actor, room, messageId: id.slice(0, 100) });
    return { message: toV2HistoryItem(message, q.timezone, this.base) };
  }
}
