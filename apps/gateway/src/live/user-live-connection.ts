import type { PrivateMessageSentV1Payload } from '@app/contracts';
import type { LiveEvent } from './live-event';
import { LiveSink, LiveStream } from './live-stream';
import { sseEvent } from './sse';

export interface UserLiveConnectionOptions {
  /** Past this many bytes not taken by the client, the stream is ended (`slow_client`). */
  maxPendingBytes: number;
  /** The token (or session) it was opened with: revoking it ends the stream. */
  tokenId?: number;
  /** Whether the person may still read the room: true, false, never rejecting (an outage is retried by it). */
  mayRead(roomId: number): Promise<boolean>;
  /** The `data` of a `private_message` event, in the API's shape. */
  presentPrivate(payload: PrivateMessageSentV1Payload): string;
  /** The stream started or stopped carrying a room (the hub's index of rooms follows). */
  watching?(roomId: number, watching: boolean): void;
}

/**
 * One person's live stream (GET /v2/user/{user}/events): what is said in the rooms of their
 * chats and their private messages, with no `id:` (it mixes rooms; it does not resume: the
 * client reads its chats again when it reconnects). Losing access loses the room at once:
 * its events are held from the moment a notice says the person may have lost it until the
 * rooms service answers; refused, they are dropped and the room leaves the stream.
 */
export class UserLiveConnection extends LiveStream {
  private readonly rooms = new Set<number>();
  /** Rooms whose events are held while the person's access is asked: the latest check's number and what waits. */
  private readonly held = new Map<number, { check: number; frames: string[] }>();
  private checks = 0;

  constructor(
    readonly personId: number,
    sink: LiveSink,
    rooms: Iterable<number>,
    private readonly options: UserLiveConnectionOptions,
    /** Called once, when the stream ends for whatever reason. */
    onEnd: (connection: UserLiveConnection) => void,
  ) {
    super(sink, options, onEnd as (stream: LiveStream) => void);
    for (const roomId of rooms) this.rooms.add(roomId);
  }

  get userId(): number {
    return this.personId;
  }

  /** The rooms it carries now. */
  get roomIds(): number[] {
    return [...this.rooms];
  }

  /** The person joined a room (entered it, or was made a member): its events come from now on. */
  watch(roomId: number): void {
    if (!this.isOpen || this.rooms.has(roomId)) return;
    this.rooms.add(roomId);
    this.options.watching?.(roomId, true);
  }

  /** The room is gone (deleted) or no longer the person's: nothing more of it is sent. */
  unwatch(roomId: number): void {
    this.held.delete(roomId);
    if (this.rooms.delete(roomId)) this.options.watching?.(roomId, false);
  }

  offerRoomEvent(event: LiveEvent): void {
    if (!event.userFrame || !this.rooms.has(event.roomId)) return;
    const hold = this.held.get(event.roomId);
    if (hold) hold.frames.push(event.userFrame);
    else this.write(event.userFrame);
  }

  offerPrivateMessage(payload: PrivateMessageSentV1Payload): void {
    this.write(sseEvent({ event: 'private_message', data: this.options.presentPrivate(payload) }));
  }

  /**
   * The person may have lost access to the room: its events are held until the rooms service
   * answers. Allowed: what was held is sent. Refused: dropped, and the room leaves the stream.
   */
  recheckRoom(roomId: number): void {
    if (!this.isOpen || !this.rooms.has(roomId)) return;
    const check = ++this.checks;
    const hold = this.held.get(roomId);
    if (hold) hold.check = check;
    else this.held.set(roomId, { check, frames: [] });
    void this.options.mayRead(roomId).then((allowed) => {
      const current = this.held.get(roomId);
      if (!current || current.check !== check || !this.isOpen) return;
      this.held.delete(roomId);
      if (!allowed) return this.unwatch(roomId);
      for (const frame of current.frames) this.write(frame);
    });
  }

  /** The person may have lost access to rooms at once (deleted, demoted): every room is asked again. */
  recheckAll(): void {
    for (const roomId of [...this.rooms]) this.recheckRoom(roomId);
  }

  protected resumeAdvice(): string {
    return 'Reconnect, and read GET /v2/user/{user}/chats for what was missed.';
  }

  protected override onClosed(): void {
    for (const roomId of [...this.rooms]) this.unwatch(roomId);
  }
}
