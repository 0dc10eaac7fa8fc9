import type { LiveEvent } from './live-event';
import { ACCESS_REVOKED, ROOM_DELETED } from './live-event';
import { LiveSink, LiveStream } from './live-stream';
import { CursorOptions, EventPage, ResumeCursor } from './resume-cursor';

export type { LiveSink } from './live-stream';

export interface LiveConnectionOptions {
  /** Past this many bytes not taken by the client, the connection is ended (`slow_client`). */
  maxPendingBytes: number;
  cursor?: CursorOptions;
  /**
   * Catching up from the log waits for the client to take what was written (down to half of
   * maxPendingBytes) before each event; a client that takes nothing for this long is cut off
   * (`slow_client`). Default 30 s.
   */
  catchUpPatienceMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /**
   * The reader (its user, when it is one) and how to ask whether it may still read the room:
   * true, false (refused: the stream ends), never rejecting (it retries an outage itself).
   */
  access?: { userId: number | null; check(): Promise<boolean> };
  /** The token (or session) it was opened with: revoking it ends the stream. */
  tokenId?: number;
}

export { HEARTBEAT } from './live-stream';

/**
 * One client's live connection to one room: its cursor decides what to send, this writes
 * it. A client that does not read what is written (its socket buffer full) is cut off with
 * a `slow_client` error event once `maxPendingBytes` wait for it, so that no connection
 * holds more than that: it reconnects with Last-Event-ID and resumes from the log.
 */
export class LiveConnection extends LiveStream {
  readonly cursor: ResumeCursor;
  /** The sequence of the last event written: where the client resumes. */
  private lastWritten: number;
  /** Access checks started: only the latest one's answer counts. */
  private checks = 0;

  constructor(
    readonly roomId: number,
    sink: LiveSink,
    from: { seq: number; claimed: boolean },
    fetch: (after: number) => Promise<EventPage>,
    private readonly options: LiveConnectionOptions,
    /** Called once, when the connection ends for whatever reason. */
    onEnd: (connection: LiveConnection) => void,
  ) {
    super(sink, options, onEnd as (stream: LiveStream) => void);
    this.lastWritten = from.seq;
    this.cursor = new ResumeCursor(from, fetch, { send: (e) => this.send(e), fail: (p) => this.fail(p), taken: () => this.taken() }, options.cursor);
  }

  /** The last event the client was sent (where it resumes). */
  get lastEventId(): number {
    return this.lastWritten;
  }

  offer(event: LiveEvent): void {
    if (this.isOpen) this.cursor.offer(event);
  }

  get userId(): number | null {
    return this.options.access?.userId ?? null;
  }

  /**
   * The reader may have lost access to the room: nothing more is written until the rooms
   * service answers. Allowed: what was held is sent. Refused: the stream ends
   * (`access_revoked`), so nothing committed after the loss reaches it.
   */
  recheckAccess(): void {
    const access = this.options.access;
    if (!this.isOpen || !access) return;
    this.cursor.suspend();
    const check = ++this.checks;
    void access.check().then((allowed) => {
      if (check !== this.checks || !this.isOpen) return;
      if (allowed) void this.cursor.resume();
      else this.fail(ACCESS_REVOKED);
    });
  }

  private send(event: LiveEvent): void {
    if (this.write(event.frame)) this.lastWritten = event.seq;
    // Nothing can follow it: the room is gone.
    if (event.name === 'room_deleted') this.fail(ROOM_DELETED);
  }

  /**
   * Before the cursor writes another event read from the log: the client has taken what was
   * written down to half the limit. The log is read a page at a time, faster than a socket
   * drains, so catching up over more than the limit would otherwise cut off a client that
   * reads as fast as it can. One that takes nothing for catchUpPatienceMs is cut off.
   */
  private async taken(): Promise<void> {
    const target = this.options.maxPendingBytes / 2;
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref()));
    const now = this.options.now ?? Date.now;
    const patience = this.options.catchUpPatienceMs ?? 30_000;
    let least = this.sink.pendingBytes();
    let progressAt = now();
    while (this.isOpen && this.sink.pendingBytes() > target) {
      await sleep(10);
      const pending = this.sink.pendingBytes();
      if (pending < least) {
        least = pending;
        progressAt = now();
      } else if (now() - progressAt > patience) {
        this.slow(pending);
        return;
      }
    }
  }

  protected resumeAdvice(): string {
    return `Reconnect with Last-Event-ID ${this.lastWritten} to resume.`;
  }

  protected override onClosed(): void {
    this.cursor.close();
  }
}
