import type { StreamProblem } from './live-event';
import { problemFrame } from './live-event';
import { sseComment } from './sse';

/** Where a live stream writes: the transport (an SSE response), kept behind this so the core has no HTTP in it. */
export interface LiveSink {
  write(text: string): void;
  /** Bytes written and not yet taken by the client (the socket's buffer included). */
  pendingBytes(): number;
  /** Ends the stream once what is written is sent (or drops the connection if it is not taken soon). */
  end(): void;
  /** The client went away (or the stream was ended). */
  onClose(listener: () => void): void;
}

export const HEARTBEAT = sseComment();

/**
 * What every live stream does with its transport, whatever it carries (a room's events, a
 * person's chats): heartbeats, ending with a reason (`error` event), and cutting off a client
 * that does not read what is written (`slow_client`) once `maxPendingBytes` wait for it, so
 * that no stream holds more than that.
 */
export abstract class LiveStream {
  readonly openedAt = Date.now();
  private open = true;

  protected constructor(
    protected readonly sink: LiveSink,
    protected readonly limits: { maxPendingBytes: number; tokenId?: number },
    /** Called once, when the stream ends for whatever reason. */
    private readonly onEnd: (stream: LiveStream) => void,
  ) {
    sink.onClose(() => this.closed());
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** The token (or session) this stream was opened with (null: unknown): revoking it ends the stream. */
  get tokenId(): number | null {
    return this.limits.tokenId ?? null;
  }

  /** The reader this stream was opened for (null: a room token, or unknown). */
  abstract get userId(): number | null;

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

  /** Writes unless the client leaves more than maxPendingBytes unread (then it is cut off): whether it was written. */
  protected write(text: string): boolean {
    if (!this.open) return false;
    const pending = this.sink.pendingBytes();
    if (pending > this.limits.maxPendingBytes) {
      this.slow(pending);
      return false;
    }
    this.sink.write(text);
    return true;
  }

  protected slow(pending: number): void {
    this.fail({
      code: 'slow_client',
      message: `This connection did not take what was sent: ${pending} bytes were waiting for it (at most ${this.limits.maxPendingBytes}). ` +
        this.resumeAdvice(),
    });
  }

  /** How a client cut off (slow_client) gets back what it missed. */
  protected abstract resumeAdvice(): string;

  /** What the kind of stream lets go of when it ends (before onEnd). */
  protected onClosed(): void {
    // Nothing by default.
  }

  private closed(): void {
    if (!this.open) return;
    this.open = false;
    this.onClosed();
    this.onEnd(this);
  }
}
