import type { LiveEvent, StreamProblem } from './live-event';
import { ACCESS_REVOKED, problemFrame, ROOM_DELETED } from './live-event';
import { CursorOptions, EventPage, ResumeCursor } from './resume-cursor';
import { sseComment } from './sse';

/** Where a live connection writes: the transport (an SSE response), kept behind this so the core has no HTTP in it. */
export interface LiveSink {
  write(text: string): void;
  /** Bytes written and not yet taken by the client (the socket's buffer included). */
  pendingBytes(): number;
  /** Ends the stream once what is written is sent (or drops the connection if it is not taken soon). */
  end(): void;
  /** The client went away (or the stream was ended). */
  onClose(listener: () => void): void;
}

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

export const HEARTBEAT = sseComment();

/**
 * One client's live connection to one room: its cursor decides what to send, this writes
 * it. A client that does not read what is written (its socket buffer full) is cut off with
 * a `slow_client` error event once `maxPendingBytes` wait for it, so that no connection
 * holds more than that: it reconnects with Last-Event-ID and resumes from the log.
 */
export class LiveConnection {
  readonly cursor: ResumeCursor;
  readonly openedAt = Date.now();
  private open = true;
  /** The sequence of the last event written: where the client resumes. */
  private lastWritten: number;
  /** Access checks started: only the latest one's answer counts. */
  private checks = 0;

  constructor(
    readonly roomId: number,
    private readonly sink: LiveSink,
    from: { seq: number; claimed: boolean },
    fetch: (after: number) => Promise<EventPage>,
    private readonly options: LiveConnectionOptions,
    /** Called once, when the connection ends for whatever reason. */
    private readonly onEnd: (connection: LiveConnection) => void,
  ) {
    this.lastWritten = from.seq;
    this.cursor = new ResumeCursor(from, fetch, { send: (e) => this.send(e), fail: (p) => this.fail(p), taken: () => this.taken() }, options.cursor);
    sink.onClose(() => this.closed());
  }

  /** The last event the client was sent (where it resumes). */
  get lastEventId(): number {
    return this.lastWritten;
  }

  get isOpen(): boolean {
    return this.open;
  }

  offer(event: LiveEvent): void {
    if (this.open) this.cursor.offer(event);
  }

  /** The token (or session) this connection was opened with (null: unknown). */
  get tokenId(): number | null {
    return this.options.tokenId ?? null;
  }

  /** The reader this connection was opened for (null: a room token, or unknown). */
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
    if (!this.open || !access) return;
    this.cursor.suspend();
    const check = ++this.checks;
    void access.check().then((allowed) => {
      if (check !== this.checks || !this.open) return;
      if (allowed) void this.cursor.resume();
      else this.fail(ACCESS_REVOKED);
    });
  }

  heartbeat(): void {
    this.write(HEARTBEAT);
  }

  /** Tells the client why, then ends the stream. */
  fail(problem: StreamProblem): void {
    if (!this.open) return;
    this.sink.write(problemFrame(problem));
    this.end();
  }

  /** Ends the stream (after a last comment, when given): the gateway is stopping, say. */
  end(comment?: string): void {
    if (!this.open) return;
    if (comment !== undefined) this.sink.write(sseComment(` ${comment}`));
    this.closed();
    this.sink.end();
  }

  private send(event: LiveEvent): void {
    if (this.write(event.frame)) this.lastWritten = event.seq;
    // Nothing can follow it: the room is gone.
    if (event.name === 'room_deleted') this.fail(ROOM_DELETED);
  }

  private write(text: string): boolean {
    if (!this.open) return false;
    const pending = this.sink.pendingBytes();
    if (pending > this.options.maxPendingBytes) {
      this.slow(pending);
      return false;
    }
    this.sink.write(text);
    return true;
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
    while (this.open && this.sink.pendingBytes() > target) {
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

  private slow(pending: number): void {
    this.fail({
      code: 'slow_client',
      message: `This connection did not take what was sent: ${pending} bytes were waiting for it (at most ${this.options.maxPendingBytes}). ` +
        `Reconnect with Last-Event-ID ${this.lastWritten} to resume.`,
    });
  }

  private closed(): void {
    if (!this.open) return;
    this.open = false;
    this.cursor.close();
    this.onEnd(this);
  }
}
