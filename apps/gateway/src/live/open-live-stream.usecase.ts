import { Inject, Injectable } from '@nestjs/common';
import { Actor, GetRoomEventsV1, RoomEventsReply, RoomRef } from '@app/contracts';
import { APP_LOGGER, AppLogger } from '@app/common';
import { ConsolePresence } from '../presence/console-presence';
import { TokenAuthenticator } from '../shared/auth/token-authenticator';
import { RoomsClient, RoomsOutage } from '../shared/rooms-client';
import { LiveConnection, LiveSink } from './live-connection';
import { ACCESS_REVOKED, toLiveEvent } from './live-event';
import { LiveHub } from './live-hub';
import { LIVE_SETTINGS, LiveSettings } from './live-settings';
import { mayReadRoom } from './reader-access';
import { EventPage } from './resume-cursor';

/** Events read from the log per request to the rooms service. */
const PAGE_SIZE = 200;

export interface OpenLiveStreamCommand {
  /** Whoever the API authenticated (a v2 token, or the console's session). */
  actor: Actor;
  /** The token (or session) it was opened with: revoking it ends the stream. */
  tokenId: number;
  /** A person with the room open in the console (a session): a participant while the stream is open. */
  presentUserId: number | null;
  room: RoomRef;
  /** The last event the client has (Last-Event-ID), or null: only events from now on. */
  lastEventId: number | null;
}

/** A live stream allowed and placed, not yet started: `attach` starts it on its transport. */
export interface LiveStart {
  roomId: number;
  attach(sink: LiveSink): LiveConnection;
}

/**
 * Opens a live connection to a room, API-neutral: everything that can refuse it happens
 * before anything is written, so that the API answers a refusal with its own error body
 * and status (the room unknown, the reader not allowed, the broker unreachable). Then the
 * connection joins the hub (it receives the room's events from then on) and reads the log
 * from where the client is: the client's Last-Event-ID, or the room's last event (what was
 * published between that read and joining comes from the log too).
 */
@Injectable()
export class OpenLiveStream {
  constructor(
    private readonly rooms: RoomsClient,
    private readonly hub: LiveHub,
    @Inject(LIVE_SETTINGS) private readonly settings: LiveSettings,
    private readonly presence: ConsolePresence,
    tokens: TokenAuthenticator,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {
    // Signing out (or revoking the token) ends the streams it opened: on this replica before
    // its answer; on every replica by the notice (LiveHub.tokenRevoked).
    tokens.whenRevoked((tokenId) => hub.tokenRevoked(tokenId));
  }

  async execute(cmd: OpenLiveStreamCommand): Promise<LiveStart> {
    await this.hub.ready();
    const { actor } = cmd;
    const start = await this.rooms.send(GetRoomEventsV1, { room: cmd.room, actor, after: cmd.lastEventId, limit: 0 });
    const room = { id: start.roomId };
    let connection: LiveConnection | undefined;
    const fetch = async (after: number): Promise<EventPage> => {
      try {
        return toPage(await this.rooms.send(GetRoomEventsV1, { room, actor, after, limit: PAGE_SIZE }));
      } catch (err) {
        // A refusal, not an outage: the room was deleted while the log was read (its
        // room_deleted, held from the live feed, ends the stream as it would have live), or the
        // reader lost access (a notice this replica missed, in a broker outage, say). The stream
        // ends rather than retry for ever.
        if (!(err instanceof RoomsOutage) && !connection?.cursor.finishDeleted()) connection?.fail(ACCESS_REVOKED);
        throw err;
      }
    };
    // Asked as the stream's opening asked: the same rule as the history's.
    const check = () => mayReadRoom(this.rooms, start.roomId, actor, () => connection?.isOpen === true);
    const access = { userId: actor.userId ?? null, check };
    return {
      roomId: start.roomId,
      attach: (sink) => {
        const from = cmd.lastEventId === null ? { seq: start.lastSeq, claimed: false } : { seq: cmd.lastEventId, claimed: true };
        let presence: Promise<string | null> = Promise.resolve(null);
        connection = new LiveConnection(start.roomId, sink, from, fetch, { maxPendingBytes: this.settings.maxPendingBytes, access, tokenId: cmd.tokenId }, (c) => {
          this.hub.remove(c);
          void presence.then((id) => (id ? this.presence.closed(id) : undefined)).catch((err: Error) =>
            this.logger.warn({ err: err.message, roomId: start.roomId }, 'presence: could not record that a console left the room'));
        });
        this.hub.add(connection);
        if (cmd.presentUserId !== null) {
          presence = this.presence.opened(start.roomId, cmd.presentUserId).catch((err: Error) => {
            this.logger.warn({ err: err.message, roomId: start.roomId }, 'presence: could not record that a console opened the room');
            return null;
          });
        }
        if (!start.covered) {
          connection.fail({
            code: 'last_event_id_expired',
            message: `Last-Event-ID ${cmd.lastEventId}: the events after it are older than this service keeps, and cannot be sent without a gap. ` +
              'Reconnect without Last-Event-ID, and read what was missed from the room\'s history.',
          });
        } else {
          void connection.cursor.catchUp();
        }
        return connection;
      },
    };
  }
}

function toPage(reply: RoomEventsReply): EventPage {
  return {
    lastSeq: reply.lastSeq,
    covered: reply.covered,
    events: reply.events.flatMap((e) => {
      const event = toLiveEvent(e.routingKey, e.envelope);
      return event ? [event] : [];
    }),
  };
}
