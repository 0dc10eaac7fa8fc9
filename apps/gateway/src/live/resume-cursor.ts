import type { LiveEvent, StreamProblem } from './live-event';

/** A page of a room's event log after a sequence (rooms.room-events.v1, its events framed). */
export interface EventPage {
  /** The room's last sequence in the log when it was read. */
  lastSeq: number;
  /** False: events after the sequence asked for were pruned (older than the retention). */
  covered: boolean;
  /** Oldest first, consecutive, at most a page. */
  events: LiveEvent[];
}

/** Where the cursor writes: the connection. */
export interface CursorOutput {
  send(event: LiveEvent): void;
  /** The stream cannot go on without a gap: tell the client, then end it. */
  fail(problem: StreamProblem): void;
  /**
   * Resolves once the client has taken enough of what was written for another event of the
   * log: catching up writes no faster than the client reads (absent: at once).
   */
  taken?(): Promise<void>;
}

export interface CursorOptions {
  /** Events asked for per read of the log. */
  pageSize: number;
  /** Live events held while the log is read; past this the oldest are dropped, to be read from the log. */
  maxHeldEvents: number;
  /** How long the log may lag the live feed (or a Last-Event-ID) without progress before the stream gives up. */
  lagLimitMs: number;
  /** Waits between reads of a log that lags, or after a read that failed: doubling from `first` to `max`. */
  retryMs: { first: number; max: number };
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

export const DEFAULT_CURSOR_OPTIONS: CursorOptions = { pageSize: 200, maxHeldEvents: 1_000, lagLimitMs: 5_000, retryMs: { first: 10, max: 2_000 } };

/**
 * One live connection's place in its room's events: it sends each event once, in sequence
 * order, with no gap, merging two sources that overlap:
 *
 * - the live feed (the gateway's queue on the events exchange), which may repeat an event
 *   (a relay that took over publishes it again, with the number it had) or miss some (a
 *   broker reconnection, or events published before the connection joined its room);
 * - the room's log (rooms.room-events.v1), complete within its retention but written just
 *   after the event is published, so it may briefly lag the live feed.
 *
 * An event next in sequence is sent at once. Anything else (a gap) starts a read of the log
 * from the last event sent, meanwhile holding the live events (deduplicated by sequence).
 * The log's events are sent, then the held ones that follow them, until nothing seen live
 * is left unsent and the log has reached the last event sent. A log that makes no progress
 * for `lagLimitMs` ends the stream with an error event rather than with a silent gap; one
 * that pruned what follows the last event sent ends it with `last_event_id_expired`. A read
 * that fails (the rooms service or the broker unreachable) is retried while the connection
 * is open: the client sees a pause, then everything.
 */
export class ResumeCursor {
  private lastSent: number;
  /** Highest sequence seen on the live feed: what must be sent before the cursor is live again. */
  private highestSeen: number;
  private readonly held = new Map<number, LiveEvent>();
  private reading?: Promise<void>;
  private readAgain = false;
  private closed = false;
  /** Nothing is sent (live events are held) until `resume`: the reader's access is being checked. */
  private suspended = false;
  /** A Last-Event-ID the client gave and no event has confirmed yet (0: none). */
  private claimed: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;

  /**
   * `from`: the last event the client has, the client's Last-Event-ID (`claimed`: it may be
   * wrong, the log must reach it) or the room's last sequence when it gave none.
   */
  constructor(
    from: { seq: number; claimed: boolean },
    private readonly fetch: (after: number) => Promise<EventPage>,
    private readonly out: CursorOutput,
    private readonly options: CursorOptions = DEFAULT_CURSOR_OPTIONS,
  ) {
    this.lastSent = from.seq;
    this.highestSeen = from.seq;
    this.claimed = from.claimed ? from.seq : 0;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms).unref()));
    this.now = options.now ?? Date.now;
  }

  /** The sequence of the last event sent (the client's Last-Event-ID). */
  get last(): number {
    return this.lastSent;
  }

  /** Whether the log is being read (live events are held meanwhile). */
  get catchingUp(): boolean {
    return this.reading !== undefined;
  }

  /** An event from the live feed. */
  offer(event: LiveEvent): void {
    if (this.closed || event.seq <= this.lastSent) return;
    if (event.seq > this.highestSeen) this.highestSeen = event.seq;
    if (this.suspended) {
      this.hold(event);
      return;
    }
    if (!this.reading && event.seq === this.lastSent + 1) {
      this.emit(event);
      return;
    }
    this.hold(event);
    void this.catchUp();
  }

  /**
   * Reads the log from the last event sent: at the start, and whenever the live feed may
   * have missed events (the broker reconnected). Resolves once caught up (or ended).
   */
  catchUp(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    // Started on the next tick: `reading` is set before a live event can arrive from within a read.
    this.reading = Promise.resolve().then(() => this.read()).finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  /**
   * Sends nothing more until `resume`: live events are held (past `maxHeldEvents` the log
   * has them) and a read of the log under way stops before its next event.
   */
  suspend(): void {
    this.suspended = true;
  }

  /** Sends again: what was held, and what the log has after the last event sent. */
  resume(): Promise<void> {
    if (!this.suspended) return Promise.resolve();
    this.suspended = false;
    return this.catchUp();
  }

  close(): void {
    this.closed = true;
    this.held.clear();
  }

  /**
   * The log refused to be read because the room is gone: deleted while the cursor waited for
   * it, its log with it. When the live feed brought the room's room_deleted, what it holds
   * after the last event sent, through room_deleted, is sent in sequence (the room's end, as a
   * live reader would have seen it), and true returned. What the feed missed before it cannot
   * be read any more, from anywhere: the stream ends on room_deleted rather than on an access
   * error that hides why. Without a room_deleted held: false, nothing sent.
   */
  finishDeleted(): boolean {
    if (this.closed) return false;
    const rest = [...this.held.values()].filter((e) => e.seq > this.lastSent).sort((a, b) => a.seq - b.seq);
    const end = rest.findIndex((e) => e.name === 'room_deleted');
    if (end < 0) return false;
    for (const event of rest.slice(0, end + 1)) {
      this.held.delete(event.seq);
      if (!this.closed) this.emit(event);
    }
    return true;
  }

  private async read(): Promise<void> {
    const { pageSize, lagLimitMs, retryMs } = this.options;
    let progressAt = this.now();
    let wait = retryMs.first;
    for (;;) {
      this.readAgain = false;
      let page: EventPage;
      try {
        page = await this.fetch(this.lastSent);
      } catch {
        if (this.closed) return;
        await this.sleep(wait);
        wait = Math.min(wait * 2, retryMs.max);
        progressAt = this.now();
        continue;
      }
      if (this.closed || this.suspended) return;
      if (!page.covered) return this.end(expired(this.lastSent));
      const before = this.lastSent;
      for (const event of page.events) {
        if (event.seq <= this.lastSent) continue;
        // The log is written without holes and pruned oldest first: this is a bug, not a state.
        if (event.seq !== this.lastSent + 1) return this.end(failed(`the log skipped from ${this.lastSent} to ${event.seq}`));
        if (this.out.taken) {
          await this.out.taken();
          // Suspended meanwhile (the reader's access is being checked): the log is read again on resume.
          if (this.closed || this.suspended) return;
        }
        this.emit(event);
        if (this.closed || this.suspended) return;
      }
      this.releaseHeld();
      if (this.closed || this.suspended) return;
      if (this.lastSent > before) {
        progressAt = this.now();
        wait = retryMs.first;
      }
      if (page.events.length >= pageSize || this.readAgain) continue;
      if (page.lastSeq >= this.claimed || this.highestSeen > this.claimed) this.claimed = 0;
      if (this.lastSent >= this.highestSeen && this.claimed === 0) return;
      // The live feed (or the client's Last-Event-ID) is ahead of the log: the relay logs an
      // event just after publishing it, so the log follows within milliseconds.
      if (this.now() - progressAt > lagLimitMs) {
        return this.end(this.claimed !== 0
          ? unknown(this.claimed, page.lastSeq)
          : failed(`the room's event log stopped at ${page.lastSeq} while ${this.highestSeen} was published`));
      }
      await this.sleep(wait);
      if (this.closed || this.suspended) return;
      wait = Math.min(wait * 2, retryMs.max);
    }
  }

  private emit(event: LiveEvent): void {
    this.lastSent = event.seq;
    if (event.seq > this.highestSeen) this.highestSeen = event.seq;
    this.out.send(event);
  }

  private hold(event: LiveEvent): void {
    this.held.set(event.seq, event);
    if (this.held.size > this.options.maxHeldEvents) {
      // The log has them: drop the oldest held (the next to be read from it anyway).
      this.held.delete(Math.min(...this.held.keys()));
    }
  }

  /** Sends the held events that follow the last one sent; drops those already sent. */
  private releaseHeld(): void {
    for (let next = this.held.get(this.lastSent + 1); next && !this.closed && !this.suspended; next = this.held.get(this.lastSent + 1)) {
      this.held.delete(next.seq);
      this.emit(next);
    }
    for (const seq of this.held.keys()) if (seq <= this.lastSent) this.held.delete(seq);
  }

  private end(problem: StreamProblem): void {
    this.close();
    this.out.fail(problem);
  }
}

function expired(after: number): StreamProblem {
  return {
    code: 'last_event_id_expired',
    message: `The events after ${after} are older than this service keeps: they cannot be sent without a gap. ` +
      'Reconnect without Last-Event-ID, and read what was missed from the room\'s history.',
  };
}

function unknown(after: number, lastSeq: number): StreamProblem {
  return {
    code: 'last_event_id_unknown',
    message: `Last-Event-ID ${after} is not an event of this room: its last event is ${lastSeq}. Reconnect without Last-Event-ID.`,
  };
}

function failed(why: string): StreamProblem {
  return { code: 'resume_failed', message: `The stream could not go on without a gap (${why}). Reconnect with Last-Event-ID to resume.` };
}
