import type { LiveEvent, StreamProblem } from './live-event';
import { CursorOptions, EventPage, ResumeCursor } from './resume-cursor';

const ev = (seq: number): LiveEvent => ({ roomId: 1, seq, name: 'room_message', frame: `#${seq}` });
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** A room's log (sequences 1..last, those below `oldest` pruned) and a clock the cursor's waits advance. */
class Fixture {
  last = 0;
  oldest = 1;
  reads: number[] = [];
  failNext = 0;
  clock = 0;
  /** Runs before each read answers (to offer live events while the log is read). */
  duringRead?: (after: number) => void;
  readonly sent: number[] = [];
  readonly problems: StreamProblem[] = [];
  readonly options: CursorOptions = {
    pageSize: 3, maxHeldEvents: 4, lagLimitMs: 1_000, retryMs: { first: 10, max: 100 },
    sleep: async (ms) => {
      this.clock += ms;
    },
    now: () => this.clock,
  };

  /** A cursor from the client's Last-Event-ID (`claimed`), or from the room's last sequence. */
  cursor(from: number, claimed = true): ResumeCursor {
    return new ResumeCursor({ seq: from, claimed }, (after) => this.read(after), {
      send: (e) => this.sent.push(e.seq),
      fail: (p) => this.problems.push(p),
    }, this.options);
  }

  private async read(after: number): Promise<EventPage> {
    this.reads.push(after);
    this.duringRead?.(after);
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('rooms service unreachable');
    }
    const covered = after >= this.last || this.oldest <= after + 1;
    const events = range(Math.max(after + 1, this.oldest), this.last).slice(0, this.options.pageSize).map(ev);
    return { lastSeq: this.last, covered, events };
  }
}

describe('ResumeCursor: each event once, in sequence, no gap, from the live feed and the log', () => {
  it('suspended (an access check under way): sends nothing, from the feed or the log, until resumed', async () => {
    const f = new Fixture();
    f.last = 2;
    const c = f.cursor(2, false);
    c.suspend();
    f.last = 4;
    c.offer(ev(3));
    c.offer(ev(4));
    await c.catchUp();
    expect(f.sent).toEqual([]);
    await c.resume();
    expect(f.sent).toEqual([3, 4]);
  });

  it('sends live events in sequence at once, and drops those sent already', () => {
    const f = new Fixture();
    const c = f.cursor(4, false);
    for (const seq of [5, 6, 6, 5, 7]) c.offer(ev(seq));
    expect(f.sent).toEqual([5, 6, 7]);
    expect(f.reads).toEqual([]);
    expect(c.last).toBe(7);
  });

  it('resumes after Last-Event-ID a page at a time, merging the live events that came meanwhile, none twice', async () => {
    const f = new Fixture();
    f.last = 9;
    const c = f.cursor(2);
    // While the log is read, events 8..11 are published and arrive live (10 and 11 not yet in the log).
    f.duringRead = (after) => {
      if (after === 2) for (const seq of [8, 9, 10]) c.offer(ev(seq));
      if (after === 5) c.offer(ev(11));
    };
    await c.catchUp();
    expect(f.sent).toEqual(range(3, 11));
    expect(f.reads).toEqual([2, 5, 11]);
    expect(c.catchingUp).toBe(false);
    c.offer(ev(12));
    expect(f.sent).toEqual(range(3, 12));
  });

  it('on a gap in the live feed, reads the missed events from the log, holding the live ones until they follow', async () => {
    const f = new Fixture();
    f.last = 8;
    const c = f.cursor(5);
    c.offer(ev(8));
    expect(f.sent).toEqual([]);
    await c.catchUp();
    expect(f.sent).toEqual([6, 7, 8]);
  });

  it('waits for a log that lags the live feed (the relay logs just after publishing), then goes on', async () => {
    const f = new Fixture();
    f.last = 5;
    const c = f.cursor(5);
    c.offer(ev(7));
    f.duringRead = () => {
      if (f.reads.length === 3) f.last = 7;
    };
    await c.catchUp();
    expect(f.sent).toEqual([6, 7]);
    expect(f.reads.length).toBe(3);
    expect(f.problems).toEqual([]);
  });

  it('reads the log once more when told the live feed may have missed events (a broker reconnection)', async () => {
    const f = new Fixture();
    const c = f.cursor(3);
    f.last = 6;
    await c.catchUp();
    expect(f.sent).toEqual([4, 5, 6]);
    expect(f.reads).toEqual([3, 6]);
    await c.catchUp();
    expect(f.reads).toEqual([3, 6, 6]);
  });

  it('retries a read that fails while the connection is open', async () => {
    const f = new Fixture();
    f.last = 4;
    f.failNext = 3;
    const c = f.cursor(2);
    await c.catchUp();
    expect(f.sent).toEqual([3, 4]);
    expect(f.reads).toEqual([2, 2, 2, 2]);
  });

  it('drops held live events past its bound and reads them from the log instead: still complete', async () => {
    const f = new Fixture();
    f.last = 20;
    const c = f.cursor(0);
    f.duringRead = (after) => {
      if (after === 0) for (const seq of range(10, 20)) c.offer(ev(seq));
    };
    await c.catchUp();
    expect(f.sent).toEqual(range(1, 20));
  });

  it('ends with last_event_id_expired when what follows Last-Event-ID was pruned', async () => {
    const f = new Fixture();
    f.last = 9;
    f.oldest = 5;
    const c = f.cursor(2);
    await c.catchUp();
    expect(f.sent).toEqual([]);
    expect(f.problems).toEqual([expect.objectContaining({ code: 'last_event_id_expired' })]);
    c.offer(ev(3));
    expect(f.sent).toEqual([]);
  });

  it('resumes from an old id whose followers are all kept, and from the last event however old', async () => {
    const f = new Fixture();
    f.last = 9;
    f.oldest = 5;
    await f.cursor(4).catchUp();
    expect(f.sent).toEqual(range(5, 9));
    f.oldest = 10;
    await f.cursor(9).catchUp();
    expect(f.problems).toEqual([]);
  });

  it('ends with last_event_id_unknown when Last-Event-ID stays past the room\'s last event', async () => {
    const f = new Fixture();
    f.last = 3;
    const c = f.cursor(40);
    await c.catchUp();
    expect(f.problems).toEqual([expect.objectContaining({ code: 'last_event_id_unknown', message: expect.stringContaining('its last event is 3') })]);
  });

  it('ends with last_event_id_unknown too when the room gets new events meanwhile, still short of Last-Event-ID', async () => {
    const f = new Fixture();
    f.last = 4;
    const c = f.cursor(100);
    f.duringRead = () => {
      if (f.last < 6) c.offer(ev(++f.last));
    };
    await c.catchUp();
    expect(f.sent).toEqual([]);
    expect(f.problems).toEqual([expect.objectContaining({ code: 'last_event_id_unknown', message: expect.stringContaining('its last event is 6') })]);
  });

  it('ends with resume_failed rather than skip, when the log never reaches what was seen live', async () => {
    const f = new Fixture();
    f.last = 5;
    const c = f.cursor(5);
    c.offer(ev(9));
    await c.catchUp();
    expect(f.sent).toEqual([]);
    expect(f.problems).toEqual([expect.objectContaining({ code: 'resume_failed' })]);
  });

  it('stops reading once closed (the client went away)', async () => {
    const f = new Fixture();
    f.last = 9;
    const c = f.cursor(0);
    f.duringRead = () => c.close();
    await c.catchUp();
    expect(f.sent).toEqual([]);
    expect(f.reads).toEqual([0]);
  });

  describe('a room deleted before its log could be read (the log went with it)', () => {
    const named = (seq: number, name: LiveEvent['name']): LiveEvent => ({ ...ev(seq), name });

    /**
     * A cursor at 2 that the live feed brings `offered` (a gap: the feed missed 3), whose log then
     * refuses (the room is gone); its fetch does what the gateway's does with a refusal.
     */
    async function deletedBeforeRead(offered: LiveEvent[]): Promise<{ sent: number[]; finished: boolean[] }> {
      const sent: number[] = [];
      const finished: boolean[] = [];
      // eslint-disable-next-line prefer-const
      let c: ResumeCursor;
      const fetch = async (): Promise<EventPage> => {
        finished.push(c.finishDeleted());
        c.close();
        throw new Error('not found');
      };
      c = new ResumeCursor({ seq: 2, claimed: false }, fetch, { send: (e) => sent.push(e.seq), fail: () => undefined }, new Fixture().options);
      for (const e of offered) c.offer(e);
      await c.catchUp();
      return { sent, finished };
    }

    it('sends what the live feed brought, in sequence, through room_deleted: the room\'s end, not an access error', async () => {
      expect(await deletedBeforeRead([named(5, 'room_deleted'), named(4, 'room_exit')])).toEqual({ sent: [4, 5], finished: [true] });
    });

    it('sends nothing when the feed brought no room_deleted (the reader lost access)', async () => {
      expect(await deletedBeforeRead([named(4, 'room_exit'), named(5, 'room_message')])).toEqual({ sent: [], finished: [false] });
    });
  });
});
