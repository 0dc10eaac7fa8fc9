import type { LiveEvent, StreamProblem } from './live-event';
import { problemFrame } from './live-event';
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
    this.cursor = new ResumeCursor(from, fetch, { send: (e) => this.send(e), fail: (p) => this.fail(p) }, options.cursor);
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
  }

  private write(text: string): boolean {
    if (!this.open) return false;
    const pending = this.sink.pendingBytes();
    if (pending > this.options.maxPendingBytes) {
      this.fail({
        code: 'slow_client',
        message: `This connection did not take what was sent: ${pending} bytes were waiting for it (at most ${this.options.maxPendingBytes}). ` +
          `Reconnect with Last-Event-ID ${this.lastWritten} to resume.`,
      });
      return false;
    }
    this.sink.write(text);
    return true;
  }

  private closed(): void {
    if (!this.open) return;
    this.open = false;
    this.cursor.close();
    this.onEnd(this);
  }
}
