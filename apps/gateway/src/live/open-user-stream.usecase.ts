import { Inject, Injectable } from '@nestjs/common';
import { Actor, ListChatsV1, PrivateMessageSentV1Payload, UserRef } from '@app/contracts';
import { RoomsClient } from '../shared/rooms-client';
import { LiveHub } from './live-hub';
import { LiveSink } from './live-stream';
import { LIVE_SETTINGS, LiveSettings } from './live-settings';
import { mayReadRoom } from './reader-access';
import { UserLiveConnection } from './user-live-connection';

export interface OpenUserStreamCommand {
  /** Whoever the API authenticated (a v2 token, or the console's session). */
  actor: Actor;
  /** The token (or session) it was opened with: revoking it ends the stream. */
  tokenId: number;
  /** The person whose stream it is: the actor themselves (the rooms service refuses anyone else). */
  user: UserRef;
  /** The `data` of a `private_message` event, in the API's shape. */
  presentPrivate(payload: PrivateMessageSentV1Payload): string;
}

/** A person's stream allowed and placed, not yet started: `attach` starts it on its transport. */
export interface UserStreamStart {
  attach(sink: LiveSink): UserLiveConnection;
}

/**
 * Opens a person's live stream (their chats' rooms and their private messages), API-neutral:
 * what can refuse it (another person's stream, a token of no user, the broker unreachable)
 * happens before anything is written. The rooms it carries are their chats' (the chats list's
 * rule, read once now); rooms they enter or are made a member of join it as it goes.
 */
@Injectable()
export class OpenUserStream {
  constructor(
    private readonly rooms: RoomsClient,
    private readonly hub: LiveHub,
    @Inject(LIVE_SETTINGS) private readonly settings: LiveSettings,
  ) {}

  async execute(cmd: OpenUserStreamCommand): Promise<UserStreamStart> {
    await this.hub.ready();
    const { actor } = cmd;
    const chats = await this.rooms.send(ListChatsV1, { actor, user: cmd.user });
    // ListChats answers the actor's own chats only: the actor is a user.
    const personId = actor.userId!;
    return {
      attach: (sink) => {
        const connection: UserLiveConnection = new UserLiveConnection(personId, sink, chats.rooms.map((r) => r.id), {
          maxPendingBytes: this.settings.maxPendingBytes,
          tokenId: cmd.tokenId,
          mayRead: (roomId) => mayReadRoom(this.rooms, roomId, actor, () => connection.isOpen),
          presentPrivate: cmd.presentPrivate,
          watching: (roomId, watching) => this.hub.personWatches(connection, roomId, watching),
        }, (c) => this.hub.removePerson(c));
        this.hub.addPerson(connection);
        return connection;
      },
    };
  }
}
