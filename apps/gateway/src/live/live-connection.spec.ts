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
