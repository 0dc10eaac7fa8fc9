import type { AmqpConnectionManager, ChannelWrapper, CreateChannelOpts } from 'amqp-connection-manager';
import type { ConfirmChannel } from 'amqplib';
import type { AppLogger } from '../logging';

/** What the healer needs of amqp-connection-manager's connection. */
export interface HealableConnection {
  /** The connection now open (amqplib's model; its `connection` is what a channel's `connection` is), if any. */
  readonly connection?: { connection?: unknown };
  isConnected(): boolean;
  reconnect(): void;
}

export interface HealerOptions {
  /** The first pause before reopening; it doubles while channels keep being lost, up to `maxDelayMs`. */
  delayMs: number;
  maxDelayMs: number;
  /** A connection that lost no channel for this long counts as healthy again: the pause starts over. */
  calmMs: number;
  now?: () => number;
  schedule?: (run: () => void, ms: number) => void;
}

export const DEFAULT_HEALER_OPTIONS: HealerOptions = { delayMs: 1_000, maxDelayMs: 30_000, calmMs: 60_000 };

/**
 * amqp-connection-manager opens a wrapper's channel again only when it opens the whole
 * connection again. A channel the broker closed while the connection stayed up (an error on
 * it: a consume refused while a quorum queue elects its leader, an acknowledgement of an
 * unknown tag, a publish to a missing exchange), a setup that failed (a declaration refused),
 * or a consumer the broker cancelled (its queue deleted) leaves the wrapper with no channel or
 * no consumer, silently, for as long as the connection lasts: a service that consumes
 * nothing, or whose every publish times out.
 *
 * The healer is told of each such loss and reopens the connection after a pause: every
 * channel's setup runs again (declaring, binding, consuming). Losses close together share one
 * reopening; a connection lost meanwhile (reopened by the manager itself, or closed) is not
 * reopened again; and the pause doubles while losses go on (a declaration refused for good
 * must not reopen the connection every second), starting over once the connection is calm.
 */
export class ConnectionHealer {
  /** The connections (amqplib's) channels were lost on, with which and why, waiting for the pause to end. */
  private readonly lostOn = new Map<unknown, Array<{ channel: string; why: string }>>();
  private scheduled = false;
  /** The pause before the next reopening: doubled by each reopening, back to the first once calm. */
  private delay: number;
  private lastHealAt = Number.NEGATIVE_INFINITY;
  private readonly now: () => number;
  private readonly schedule: (run: () => void, ms: number) => void;

  constructor(
    private readonly manager: HealableConnection,
    private readonly logger: AppLogger,
    private readonly options: HealerOptions = DEFAULT_HEALER_OPTIONS,
  ) {
    this.delay = options.delayMs;
    this.now = options.now ?? Date.now;
    this.schedule = options.schedule ?? ((run, ms) => setTimeout(run, ms).unref());
  }

  /** A channel opened on `on` (its amqplib connection) was lost, or not set up, for `why`. */
  channelLost(on: unknown, channel: string, why: string): void {
    const lost = this.lostOn.get(on) ?? [];
    lost.push({ channel, why });
    this.lostOn.set(on, lost);
    if (this.scheduled) return;
    this.scheduled = true;
    if (this.now() - this.lastHealAt > this.options.calmMs) this.delay = this.options.delayMs;
    this.schedule(() => this.heal(), this.delay);
  }

  private heal(): void {
    this.scheduled = false;
    const current = this.manager.connection?.connection;
    const lost = current === undefined ? undefined : this.lostOn.get(current);
    this.lostOn.clear();
    // Reopened meanwhile (its channels set up again with it), or closed for good: nothing to do.
    if (!lost || !this.manager.isConnected()) return;
    this.lastHealAt = this.now();
    this.delay = Math.min(this.delay * 2, this.options.maxDelayMs);
    this.logger.warn({ lost }, 'AMQP channel lost while its connection stayed up: reopening the connection, so that every channel is set up again');
    try {
      this.manager.reconnect();
    } catch {
      // Closed (the process is stopping): nothing to heal.
    }
  }
}

const healers = new WeakMap<object, ConnectionHealer>();

/** The one healer of a connection (its channels' losses share one reopening). */
export function healerOf(connection: AmqpConnectionManager, logger: AppLogger): ConnectionHealer {
  let healer = healers.get(connection);
  if (!healer) {
    healer = new ConnectionHealer(connection as unknown as HealableConnection, logger);
    healers.set(connection, healer);
  }
  return healer;
}

/** Why a channel is reported lost when amqplib hands its consume callback `null`. */
export const CONSUMER_CANCELLED = 'its consumer was cancelled by the broker (its queue deleted, say)';

/**
 * A setup that is told how to report a consumer the broker cancelled (amqplib hands the
 * consume callback `null`): `lost(why)` gets the channel set up again.
 */
export type HealingSetup = (ch: ConfirmChannel, lost: (why: string) => void) => Promise<void>;

/**
 * The one way a process opens a channel wrapper (amqp-connection-manager's createChannel): the
 * same, and the channel's losses told to the connection's healer (see ConnectionHealer): the
 * broker closing it, its setup failing, or its consumer cancelled (`lost`, given to the setup).
 * Closing the wrapper ourselves is not a loss.
 */
export function openChannel(
  connection: AmqpConnectionManager,
  logger: AppLogger,
  what: string,
  options: Omit<CreateChannelOpts, 'setup'> & { setup: HealingSetup },
  healer: Pick<ConnectionHealer, 'channelLost'> = healerOf(connection, logger),
): ChannelWrapper {
  let closed = false;
  const wrapper = connection.createChannel({
    ...options,
    setup: async (ch: ConfirmChannel) => {
      const on = (ch as unknown as { connection?: unknown }).connection;
      const lost = (why: string) => {
        if (!closed) healer.channelLost(on, what, why);
      };
      // Also emitted when the connection goes (the healer then finds it reopened already).
      ch.once('close', () => lost('the channel was closed'));
      try {
        await options.setup(ch, lost);
      } catch (err) {
        lost(`its setup failed: ${(err as Error).message}`);
        throw err;
      }
    },
  });
  // Emitted by close() before the channel's own close: the wrapper is done, not lost.
  wrapper.once('close', () => (closed = true));
  return wrapper;
}
