import { Get, Res } from '@nestjs/common';
import { Actor, AuthenticatedToken, RoomRef } from '@app/contracts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { OpenLiveStream } from '../../live/open-live-stream.usecase';
import { sseSink } from '../../live/sse-sink';
import { EventStream, RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, CurrentToken, RoomRefParam } from '../http/v2-request';
import { LAST_EVENT_ID_PARAM, LastEventId } from './last-event-id';

const RESUME = 'The last event the client has (the `id:` of an event of this stream): the stream resumes after it.';

/**
 * A room's live events as Server-Sent Events, for a token with view_messages or the console's
 * session (whose person is then a participant of the room while the stream is open). Refusals come before the
 * stream starts, as JSON with their status; then the response is the stream.
 */
@V2Controller('room')
export class RoomEventsController {
  constructor(private readonly open: OpenLiveStream) {}

  @Get(':room/events')
  @Summary('The live events of a room (text/event-stream)')
  @RequireScopes('view_messages')
  @EventStream({
    description: 'A room\'s events as they happen, as Server-Sent Events: `id:` the room\'s sequence number (consecutive), ' +
      '`event:` the webhook event name (room_message, room_notification, room_topic_change, room_enter, room_exit, ...), ' +
      '`data:` the `item` a webhook for that event receives (JSON), and a room_notification\'s card besides, in `message.card` as the history gives it (JSON text). A comment line (`:`) every LIVE_HEARTBEAT_SECONDS (15) keeps ' +
      'an idle connection open through proxies. With Last-Event-ID (header, or the last_event_id query parameter) the stream first ' +
      'sends the events after it, none missed and none repeated, within the last 24 hours; without it, events from now on. ' +
      'The stream ends with an `error` event, `{"error": {"code", "message"}}` and no id, when it cannot go on without a gap: ' +
      '`last_event_id_expired` (the events after it are no longer kept: reconnect without it and read the history), ' +
      '`last_event_id_unknown`, `resume_failed`, `token_revoked` (the session signed out, or the token revoked), or `slow_client` (a client that leaves LIVE_MAX_PENDING_BYTES unread is cut off; ' +
      'reconnect with Last-Event-ID). When the gateway stops, the stream ends (EventSource reconnects with Last-Event-ID). ' +
      'Refusals before the stream starts (401, 403, 404, 400 for a malformed Last-Event-ID, 503) are JSON error bodies.',
    headers: z.object({ 'Last-Event-ID': z.string().optional().describe(RESUME) }),
    query: z.object({ [LAST_EVENT_ID_PARAM]: z.string().optional().describe(`${RESUME} For clients that cannot set the header; the header wins.`) }),
  })
  async events(
    @RoomRefParam() room: RoomRef, @CurrentActor() actor: Actor, @CurrentToken() token: AuthenticatedToken,
    @LastEventId() lastEventId: number | null, @Res() reply: FastifyReply,
  ): Promise<void> {
    // A person with the room open in the console (its session) is in the room meanwhile.
    const presentUserId = token.kind === 'session' ? token.userId : null;
    (await this.open.execute({ actor, room, lastEventId, tokenId: token.id, presentUserId })).attach(sseSink(reply));
  }
}
