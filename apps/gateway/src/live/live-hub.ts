import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { AmqpBroker, APP_LOGGER, AppLogger } from '@app/common';
import {
  EventEnvelope, PrivateMessageSentV1, PrivateMessageSentV1Payload, RoomAccessNarrowedV1, RoomAccessNarrowedV1Payload, RoomDeletedV2, RoomMemberAddedV1,
  RoomMemberAddedV1Payload, RoomMemberEnteredV2, TokenRevokedV1, TokenRevokedV1Payload,
} from '@app/contracts';
import { ApiError } from '../shared/api-error';
import { AMQP_BROKER } from '../shared/di-tokens';
import { LiveConnection } from './live-connection';
import { EVENTS_MISSED, LIVE_EVENT_BINDINGS, toLiveEvent, TOKEN_REVOKED } from './live-event';
import { LIVE_SETTINGS, LiveSettings } from './live-settings';
import { LiveStream } from './live-stream';
import { UserLiveConnection } from './user-live-connection';

type Subscription = { stop(): Promise<void> };

/**
 * This replica's live connections and the room events they are fed from. One exclusive,
 * auto-delete queue per replica, bound to the events exchange with `room.*.v2`, so a client
 * on any replica sees every event: it exists while the replica has live connections (and
 * `lingerMs` after the last one, for the client that reconnects), so a replica nobody
 * watches costs the broker no copy of any event. Each event is framed once and handed to
 * the connections of its room.
 *
 * The broker going away does not end the connections: they stay open (heartbeats go on).
 * When the subscription comes back (amqp-connection-manager reconnects it), what was
 * published meanwhile never reached the queue, so every connection reads the room's log
 * from the last event it sent: the clients get what they missed, late, with no gap.
 *
 * People's streams (UserLiveConnection) are fed from the same queue: the room events of the
 * rooms each one carries (indexed by room, as room connections are), and the private
 * messages from or to its person. They do not resume: after a broker outage they end
 * (`events_missed`) and their clients reconnect and read their chats again.
 */
@Injectable()
export class LiveHub implements BeforeApplicationShutdown {
  private readonly rooms = new Map<number, Set<LiveConnection>>();
  /** People's streams: by person, and by each room they carry. */
  private readonly people = new Map<number, Set<UserLiveConnection>>();
  private readonly watchers = new Map<number, Set<UserLiveConnection>>();
  private count = 0;
  private subscription?: Promise<Subscription>;
  private subscribedOnce = false;
  private linger?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private stopping = false;

  constructor(
    @Inject(AMQP_BROKER) private readonly broker: Pick<AmqpBroker, 'subscribeTransient'>,
    @Inject(LIVE_SETTINGS) private readonly settings: LiveSettings,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  /** Open live connections on this replica. */
  get size(): number {
    return this.count;
  }

  /**
   * Resolves once this replica receives the room events (subscribing if it does not yet):
   * a connection joins before it reads the log, so nothing published after that read is missed.
   */
  async ready(): Promise<void> {
    if (this.stopping) throw new ApiError(503, 'The gateway is stopping: connect again (another replica will answer).');
    if (this.linger) clearTimeout(this.linger);
    this.linger = undefined;
    this.subscription ??= this.subscribe();
    try {
      await this.subscription;
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'live events: could not subscribe to the room events');
      throw new ApiError(503, 'Live events are unavailable: the message broker cannot be reached. Try again shortly.');
    }
  }

  add(connection: LiveConnection): void {
    addTo(this.rooms, connection.roomId, connection);
    this.opened();
  }

  remove(connection: LiveConnection): void {
    if (!removeFrom(this.rooms, connection.roomId, connection)) return;
    // The access log has no line for a stream (its response is taken over): this is it.
    this.closed(connection, { roomId: connection.roomId, lastEventId: connection.lastEventId });
  }

  /** A person's stream: it carries its rooms (and the rooms it joins) and its person's private messages. */
  addPerson(connection: UserLiveConnection): void {
    addTo(this.people, connection.personId, connection);
    for (const roomId of connection.roomIds) addTo(this.watchers, roomId, connection);
    this.opened();
  }

  removePerson(connection: UserLiveConnection): void {
    if (!removeFrom(this.people, connection.personId, connection)) return;
    for (const roomId of connection.roomIds) removeFrom(this.watchers, roomId, connection);
    this.closed(connection, { userId: connection.personId });
  }

  /** A person's stream started or stopped carrying a room (UserLiveConnectionOptions.watching). */
  personWatches(connection: UserLiveConnection, roomId: number, watching: boolean): void {
    if (!this.people.get(connection.personId)?.has(connection)) return;
    if (watching) addTo(this.watchers, roomId, connection);
    else removeFrom(this.watchers, roomId, connection);
  }

  private opened(): void {
    this.count++;
    this.heartbeat ??= setInterval(() => this.beat(), this.settings.heartbeatMs).unref();
  }

  private closed(stream: LiveStream, fields: Record<string, unknown>): void {
    this.count--;
    this.logger.info({ ...fields, ms: Date.now() - stream.openedAt, open: this.count }, 'live connection ended');
    if (this.count > 0) return;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    if (!this.stopping) {
      this.linger = setTimeout(() => void this.unsubscribe(), this.settings.lingerMs);
      this.linger.unref();
    }
  }

  /** The gateway's graceful stop: every stream ends (clients reconnect, to another replica, with Last-Event-ID). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    if (this.linger) clearTimeout(this.linger);
    for (const set of [...this.rooms.values()]) {
      for (const connection of [...set]) connection.end('the gateway is stopping: reconnect with Last-Event-ID to resume');
    }
    for (const connection of this.peopleStreams()) connection.end('the gateway is stopping: reconnect, and read your chats again');
    await this.unsubscribe();
  }

  private subscribe(): Promise<Subscription> {
    this.subscribedOnce = false;
    const subscribing = this.broker.subscribeTransient(
      LIVE_EVENT_BINDINGS, (envelope, routingKey) => this.dispatch(envelope, routingKey), () => this.onSubscribed(), this.settings.connectTimeoutMs);
    subscribing.catch(() => {
      if (this.subscription === subscribing) this.subscription = undefined;
    });
    return subscribing;
  }

  private async unsubscribe(): Promise<void> {
    const subscription = this.subscription;
    this.subscription = undefined;
    this.linger = undefined;
    await (await subscription?.catch(() => undefined))?.stop();
  }

  /** Every (re)subscription: after the first, the queue is new and missed what was published meanwhile. */
  private onSubscribed(): void {
    if (!this.subscribedOnce) {
      this.subscribedOnce = true;
      return;
    }
    this.logger.info({ connections: this.count }, 'live events: subscribed again; connections read what they missed from the log');
    for (const set of this.rooms.values()) for (const connection of set) void connection.cursor.catchUp();
    // A person's stream has no log to read: its client reconnects and reads its chats again.
    for (const connection of this.peopleStreams()) connection.fail(EVENTS_MISSED);
  }

  private peopleStreams(): UserLiveConnection[] {
    return [...this.people.values()].flatMap((set) => [...set]);
  }

  private dispatch(envelope: EventEnvelope, routingKey: string): void {
    if (routingKey === RoomAccessNarrowedV1.routingKey) return this.accessNarrowed(envelope);
    if (routingKey === TokenRevokedV1.routingKey) {
      const { tokenId } = (envelope.payload ?? {}) as Partial<TokenRevokedV1Payload>;
      if (typeof tokenId === 'number') this.tokenRevoked(tokenId);
      return;
    }
    if (routingKey === PrivateMessageSentV1.routingKey) return this.privateMessage(envelope.payload as PrivateMessageSentV1Payload);
    if (routingKey === RoomMemberAddedV1.routingKey) {
      const { roomId, userId } = (envelope.payload ?? {}) as Partial<RoomMemberAddedV1Payload>;
      if (typeof roomId === 'number' && typeof userId === 'number') this.joined(userId, roomId);
      return;
    }
    const roomId = (envelope.payload as { room?: { id?: unknown } } | null)?.room?.id;
    if (typeof roomId !== 'number') return;
    if (routingKey === RoomMemberEnteredV2.routingKey) {
      const enteredId = (envelope.payload as { sender?: { id?: unknown } }).sender?.id;
      if (typeof enteredId === 'number') this.joined(enteredId, roomId);
    }
    const set = this.rooms.get(roomId);
    const watchers = this.watchers.get(roomId);
    if (!set && !watchers) return;
    const event = toLiveEvent(routingKey, envelope);
    if (!event) return;
    for (const connection of set ?? []) connection.offer(event);
    for (const connection of [...watchers ?? []]) {
      if (routingKey === RoomDeletedV2.routingKey) connection.unwatch(roomId);
      else connection.offerRoomEvent(event);
    }
  }

  /** To the streams of its sender and its recipient (once, when they are one person). */
  private privateMessage(payload: PrivateMessageSentV1Payload): void {
    const ids = new Set([payload?.message?.from?.id, payload?.to?.id]);
    for (const id of ids) {
      if (typeof id !== 'number') continue;
      for (const connection of this.people.get(id) ?? []) connection.offerPrivateMessage(payload);
    }
  }

  /** The person entered a room, or was made a member of one: their streams carry it from now on. */
  private joined(userId: number, roomId: number): void {
    for (const connection of this.people.get(userId) ?? []) connection.watch(roomId);
  }

  /**
   * Someone may no longer read a room: its connections of that reader (every one, when the
   * room became private; the reader's in every room, when a user was deleted or demoted)
   * hold their events back until the rooms service says whether they may still read it.
   * Rare, so the round trips are here, not on every event.
   */
  private accessNarrowed(envelope: EventEnvelope): void {
    const { roomId, userId } = (envelope.payload ?? {}) as Partial<RoomAccessNarrowedV1Payload>;
    const sets = typeof roomId === 'number' ? [this.rooms.get(roomId)] : roomId === null && typeof userId === 'number' ? [...this.rooms.values()] : [];
    for (const set of sets) {
      for (const connection of set ?? []) {
        if (typeof userId !== 'number' || connection.userId === userId) connection.recheckAccess();
      }
    }
    if (typeof roomId === 'number') {
      for (const connection of this.watchers.get(roomId) ?? []) {
        if (typeof userId !== 'number' || connection.personId === userId) connection.recheckRoom(roomId);
      }
    } else if (roomId === null && typeof userId === 'number') {
      for (const connection of this.people.get(userId) ?? []) connection.recheckAll();
    }
  }

  /**
   * A token (or session) was revoked: the streams opened with it end. Told on this queue, in
   * order with the room events (nothing committed after the revocation reaches them), and by
   * the token cache (a revocation this replica made itself, before its answer).
   */
  tokenRevoked(tokenId: number): void {
    for (const set of [...this.rooms.values()]) {
      for (const connection of [...set]) if (connection.tokenId === tokenId) connection.fail(TOKEN_REVOKED);
    }
    for (const connection of this.peopleStreams()) if (connection.tokenId === tokenId) connection.fail(TOKEN_REVOKED);
  }

  private beat(): void {
    for (const set of this.rooms.values()) for (const connection of set) connection.heartbeat();
    for (const set of this.people.values()) for (const connection of set) connection.heartbeat();
  }
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

/** Whether it was there. */
function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): boolean {
  const set = map.get(key);
  if (!set?.delete(value)) return false;
  if (set.size === 0) map.delete(key);
  return true;
}
