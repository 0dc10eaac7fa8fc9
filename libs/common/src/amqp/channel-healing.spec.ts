import { EventEmitter } from 'node:events';
import type { AmqpConnectionManager } from 'amqp-connection-manager';
import type { ConfirmChannel } from 'amqplib';
import type { AppLogger } from '../logging';
import { ConnectionHealer, HealableConnection, HealingSetup, openChannel } from './channel-healing';

const quietLogger = () => {
  const warnings: Array<{ fields: unknown; msg: string }> = [];
  const logger = { warn: (fields: unknown, msg: string) => warnings.push({ fields, msg }) } as unknown as AppLogger;
  return { logger, warnings };
};

/** A connection manager (its open connection swapped by the test) and a clock the test runs. */
class Fixture implements HealableConnection {
  current: { connection: object } | undefined = { connection: {} };
  closed = false;
  reconnects = 0;
  clock = 0;
  timers: Array<{ at: number; run: () => void }> = [];
  readonly log = quietLogger();
  readonly healer = new ConnectionHealer(this, this.log.logger, {
    delayMs: 1_000, maxDelayMs: 4_000, calmMs: 60_000,
    now: () => this.clock,
    schedule: (run, ms) => this.timers.push({ at: this.clock + ms, run }),
  });

  get connection() {
    return this.current;
  }

  isConnected(): boolean {
    return !this.closed && this.current !== undefined;
  }

  reconnect(): void {
    if (this.closed) throw new Error('cannot reconnect after close');
    this.reconnects++;
    this.current = { connection: {} };
  }

  /** Moves the clock on by `ms`, running the timers due. */
  advance(ms: number): void {
    this.clock += ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= this.clock).sort((a, b) => a.at - b.at)[0];
      if (!due) return;
      this.timers.splice(this.timers.indexOf(due), 1);
      due.run();
    }
  }

  get on(): unknown {
    return this.current?.connection;
  }
}

describe('ConnectionHealer: a channel lost while its connection stays up gets the connection reopened', () => {
  it('reopens the connection once the pause is over, naming the channel and why', () => {
    const f = new Fixture();
    f.healer.channelLost(f.on, 'events q1', 'the channel was closed');
    f.advance(999);
    expect(f.reconnects).toBe(0);
    f.advance(1);
    expect(f.reconnects).toBe(1);
    expect(f.log.warnings).toEqual([{ fields: { lost: [{ channel: 'events q1', why: 'the channel was closed' }] }, msg: expect.stringContaining('reopening the connection') }]);
  });

  it('reopens once for channels lost together', () => {
    const f = new Fixture();
    f.healer.channelLost(f.on, 'events q1', 'the channel was closed');
    f.advance(300);
    f.healer.channelLost(f.on, 'commands', 'its setup failed: timeout');
    f.advance(10_000);
    expect(f.reconnects).toBe(1);
    expect((f.log.warnings[0].fields as { lost: unknown[] }).lost).toHaveLength(2);
  });

  it('leaves alone a connection the manager reopened itself meanwhile (its channels were lost with it), or one closed for good', () => {
    const f = new Fixture();
    f.healer.channelLost(f.on, 'events q1', 'the channel was closed');
    f.current = undefined;
    f.advance(500);
    f.current = { connection: {} };
    f.advance(1_000);
    expect(f.reconnects).toBe(0);

    f.healer.channelLost(f.on, 'events q1', 'the channel was closed');
    f.closed = true;
    f.advance(5_000);
    expect(f.reconnects).toBe(0);
    expect(f.log.warnings).toEqual([]);
  });

  it('pauses twice as long each time losses go on, up to the longest pause, and starts over once calm', () => {
    const f = new Fixture();
    const pauses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const before = f.reconnects;
      const from = f.clock;
      f.healer.channelLost(f.on, 'commands', 'its setup failed: PRECONDITION_FAILED');
      while (f.reconnects === before) f.advance(100);
      pauses.push(f.clock - from);
    }
    expect(pauses).toEqual([1_000, 2_000, 4_000, 4_000]);
    f.advance(61_000);
    const from = f.clock;
    f.healer.channelLost(f.on, 'commands', 'the channel was closed');
    while (f.reconnects === 4) f.advance(100);
    expect(f.clock - from).toBe(1_000);
  });
});

describe('openChannel: a channel wrapper whose losses reach the healer', () => {
  /** A connection manager's createChannel: the wrapper (an emitter) and the setup it was given. */
  function open(setup: HealingSetup) {
    const lost: Array<{ on: unknown; what: string; why: string }> = [];
    let wrapped: ((ch: ConfirmChannel) => Promise<void>) | undefined;
    const wrapper = new EventEmitter();
    const connection = {
      createChannel: (opts: { setup: (ch: ConfirmChannel) => Promise<void> }) => {
        wrapped = opts.setup;
        return wrapper;
      },
    } as unknown as AmqpConnectionManager;
    openChannel(connection, quietLogger().logger, 'events q1', { json: false, setup }, { channelLost: (on, what, why) => lost.push({ on, what, why }) });
    const on = {};
    const channel = Object.assign(new EventEmitter(), { connection: on }) as unknown as ConfirmChannel & EventEmitter;
    return { lost, wrapper, on, channel, setUp: () => wrapped!(channel) };
  }

  it('tells the healer when the broker closes the channel', async () => {
    const o = open(async () => undefined);
    await o.setUp();
    expect(o.lost).toEqual([]);
    o.channel.emit('close');
    expect(o.lost).toEqual([{ on: o.on, what: 'events q1', why: 'the channel was closed' }]);
  });

  it('tells it when the setup fails, and fails the setup still (the manager logs it)', async () => {
    const o = open(async () => {
      throw new Error('PRECONDITION_FAILED - inequivalent arg');
    });
    await expect(o.setUp()).rejects.toThrow('PRECONDITION_FAILED');
    expect(o.lost).toEqual([{ on: o.on, what: 'events q1', why: 'its setup failed: PRECONDITION_FAILED - inequivalent arg' }]);
  });

  it('gives the setup a way to say that its consumer was cancelled', async () => {
    let cancelled!: (why: string) => void;
    const o = open(async (_ch, lost) => {
      cancelled = lost;
    });
    await o.setUp();
    cancelled('its consumer was cancelled by the broker');
    expect(o.lost).toEqual([{ on: o.on, what: 'events q1', why: 'its consumer was cancelled by the broker' }]);
  });

  it('does not count a wrapper closed by the process as lost', async () => {
    const o = open(async () => undefined);
    await o.setUp();
    o.wrapper.emit('close');
    o.channel.emit('close');
    expect(o.lost).toEqual([]);
  });
});
