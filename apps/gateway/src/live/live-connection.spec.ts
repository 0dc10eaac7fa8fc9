import type { LiveEvent } from './live-event';
import { LiveConnection, LiveSink } from './live-connection';

class FakeSink implements LiveSink {
  written: string[] = [];
  pending = 0;
  ended = false;
  private closeListener?: () => void;
  write(text: string) {
    this.written.push(text);
  }
  pendingBytes() {
    return this.pending;
  }
  end() {
    this.ended = true;
  }
  onClose(listener: () => void) {
    this.closeListener = listener;
  }
  clientLeaves() {
    this.closeListener?.();
  }
}

const ev = (seq: number): LiveEvent => ({ roomId: 1, seq, name: 'room_message', frame: `id: ${seq}\n\n` });

describe('LiveConnection', () => {
  const make = (sink: FakeSink, ended: LiveConnection[] = []) =>
    new LiveConnection(1, sink, { seq: 0, claimed: false }, async () => ({ lastSeq: 0, covered: true, events: [] }), { maxPendingBytes: 100 }, (c) => ended.push(c));

  it('writes the frames of events in sequence, and heartbeats as comments', () => {
    const sink = new FakeSink();
    const c = make(sink);
    c.offer(ev(1));
    c.heartbeat();
    c.offer(ev(2));
    expect(sink.written).toEqual(['id: 1\n\n', ':\n\n', 'id: 2\n\n']);
  });

  it('cuts off a client that does not read: an error event naming where to resume, then the end', () => {
    const sink = new FakeSink();
    const ended: LiveConnection[] = [];
    const c = make(sink, ended);
    c.offer(ev(1));
    sink.pending = 101;
    c.offer(ev(2));
    c.offer(ev(3));
    expect(sink.written).toHaveLength(2);
    expect(sink.written[1]).toMatch(/^event: error\ndata: \{"error":\{"code":"slow_client","message":".*101 bytes.*Last-Event-ID 1 to resume/);
    expect(sink.ended).toBe(true);
    expect(ended).toEqual([c]);
    expect(c.isOpen).toBe(false);
  });

  it('catches up no faster than the client reads: each event of the log waits until what was written is half taken', async () => {
    const sink = new FakeSink();
    // 10 events of 30 bytes in the log, read 5 at a time (a page of 150 bytes: more than the
    // limit); the client takes 30 bytes each time the connection waits.
    const frame = (seq: number) => `id: ${seq}\n${'x'.repeat(30 - `id: ${seq}\n`.length - 1)}\n`;
    const log: LiveEvent[] = Array.from({ length: 10 }, (_, i) => ({ roomId: 1, seq: i + 1, name: 'room_message', frame: frame(i + 1) }));
    const origWrite = sink.write.bind(sink);
    const waiting: number[] = [];
    sink.write = (text: string) => {
      waiting.push(sink.pending);
      origWrite(text);
      sink.pending += text.length;
    };
    const c = new LiveConnection(1, sink, { seq: 0, claimed: true }, async (after) => ({ lastSeq: 10, covered: true, events: log.slice(after, after + 5) }), {
      maxPendingBytes: 100, cursor: { pageSize: 5, maxHeldEvents: 10, lagLimitMs: 1_000, retryMs: { first: 1, max: 1 } },
      sleep: async () => {
        sink.pending = Math.max(0, sink.pending - 30);
      },
    }, () => undefined);
    await c.cursor.catchUp();
    // All ten, none cut off, and no event written while more than half the limit waited.
    expect(c.lastEventId).toBe(10);
    expect(sink.written.join('')).not.toContain('slow_client');
    expect(Math.max(...waiting)).toBeLessThanOrEqual(50);
  });

  it('cuts off a client that takes nothing while the log is caught up, after the patience', async () => {
    const sink = new FakeSink();
    let clock = 0;
    const log: LiveEvent[] = Array.from({ length: 6 }, (_, i) => ({ roomId: 1, seq: i + 1, name: 'room_message', frame: 'x'.repeat(40) }));
    const origWrite = sink.write.bind(sink);
    sink.write = (text: string) => {
      origWrite(text);
      sink.pending += text.length;
    };
    const c = new LiveConnection(1, sink, { seq: 0, claimed: true }, async (after) => ({ lastSeq: 6, covered: true, events: log.slice(after, after + 2) }), {
      maxPendingBytes: 100, catchUpPatienceMs: 1_000, cursor: { pageSize: 2, maxHeldEvents: 10, lagLimitMs: 60_000, retryMs: { first: 1, max: 1 } },
      sleep: async (ms) => {
        clock += ms;
      },
      now: () => clock,
    }, () => undefined);
    await c.cursor.catchUp();
    expect(c.lastEventId).toBe(2);
    expect(sink.written.at(-1)).toMatch(/"code":"slow_client".*80 bytes.*Last-Event-ID 2 to resume/);
    expect(c.isOpen).toBe(false);
  });

  it('ends once, whether the client leaves or the gateway ends it', () => {
    const sink = new FakeSink();
    const ended: LiveConnection[] = [];
    const c = make(sink, ended);
    c.end('stopping');
    sink.clientLeaves();
    c.end('again');
    expect(sink.written).toEqual([': stopping\n\n']);
    expect(ended).toEqual([c]);
    c.offer(ev(1));
    expect(sink.written).toHaveLength(1);
  });
});
