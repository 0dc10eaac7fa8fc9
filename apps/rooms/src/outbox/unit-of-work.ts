import { CommandFailure, commandFailure, EventDefinition } from '@app/contracts';
import { AppLogger, CommandMeta, contextOf, isSampled, preparedQuery, Tracing } from '@app/common';
import { DataSource, EntityManager } from 'typeorm';
import { isTransientConflict, isUniqueViolation } from '../shared/db-errors';
import { insertOutbox, StagedEvent, stageEvent, StagedInsert, StageOptions } from './outbox';
import { OutboxRelay } from './outbox-relay';

/** A value loaded once per transaction (a batch shares it), e.g. a room locked FOR SHARE. */
export type Memo = <T>(key: string, load: () => Promise<T>) => Promise<T>;

/** What a use case writes through: the transaction, plus events staged with it. */
export interface Tx {
  manager: EntityManager;
  /**
   * The event is written in the same transaction (one INSERT for the whole batch). Its
   * handle learns the event's place in its room's order at the commit (`position`).
   */
  emit<P>(definition: EventDefinition<P>, payload: P, options?: StageOptions): StagedEvent;
  memo: Memo;
  /**
   * A row inserted with the commit by its repository: the rows of a whole batch go in one
   * statement. Nothing of the work may read it back before.
   */
  insertLater<R>(into: StagedRows<R>, row: R): void;
}

/** A repository that writes rows staged with Tx.insertLater, all of a batch at once. */
export interface StagedRows<R> {
  /**
   * The rows as an INSERT run in the statement that writes the batch's events: `events`
   * names the events written (`id`: the outbox id, `event_id`), `$param` is its parameter.
   */
  withEvents(rows: R[], events: string, param: number): StagedInsert;
}

interface Staged {
  events: StagedEvent[];
  rows: Array<{ into: StagedRows<unknown>; row: unknown }>;
}

export interface ApplyOptions<T> {
  /**
   * Run together with other commands that arrive at the same time, in one transaction.
   * Such work must throw CommandFailure only before its first write; any other error
   * aborts the batch, and each of its commands is then retried in a transaction of its own.
   */
  batch?: boolean;
  /** What to keep as the reply of a redelivered command (default: the reply itself). */
  storedReply?: (reply: T) => unknown;
  /** The reply a redelivered command answers, from what storedReply kept (default: as kept). */
  fromStored?: (stored: unknown) => T;
  /**
   * Answer only once the events are on the broker (or left to the sweeper after a failed
   * publish): for changes whose effect elsewhere depends on the event, such as a revoked token.
   */
  replyAfterPublish?: boolean;
}

/**
 * How often a command whose transaction lost a deadlock (or a serialization conflict) is
 * applied again before its caller hears of it: two commands that lock the same rows in
 * opposite orders (a room deleted while a report disables one of its webhooks and posts to
 * it) are both applied, one a moment later, where one used to fail.
 */
const CONFLICT_RETRIES = 3;

/** A stored reply as its command answers it again. */
const replayed = <T>(options: ApplyOptions<T>, stored: unknown): T => (options.fromStored ? options.fromStored(stored) : stored as T);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Item {
  meta: CommandMeta;
  work: (tx: Tx) => Promise<unknown>;
  options: ApplyOptions<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

interface Done {
  item: Item;
  outcome: ({ ok: true; reply: unknown } & Staged) | { ok: false; error: unknown };
}

export interface UnitOfWorkOptions {
  maxBatch: number;
  maxConcurrent: number;
  /** Each command of a recorded trace gets a `commit` span: its transaction, shared with its batch. */
  tracing?: Tracing;
}

/**
 * Applies commands: each exactly once by its command id (kept in the same transaction, so
 * a redelivered command answers its first reply), never after its deadline, its events
 * written with it and published right after the commit. Commands that ask for it are
 * group-committed: those arriving together share one transaction and one commit, each
 * still answered and evented on its own.
 */
export class UnitOfWork {
  private readonly queue: Item[] = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly db: DataSource,
    private readonly relay: OutboxRelay,
    private readonly logger: AppLogger,
    private readonly options: UnitOfWorkOptions,
  ) {}

  async apply<T>(meta: CommandMeta, work: (tx: Tx) => Promise<T>, options: ApplyOptions<T> = {}): Promise<T> {
    if (meta.redelivered) {
      const stored = await this.storedReply(this.db.manager, meta.commandId);
      if (stored !== undefined) return replayed(options, stored);
    }
    return new Promise<T>((resolve, reject) => {
      const item: Item = { meta, work, options: options as ApplyOptions<unknown>, resolve: resolve as (v: unknown) => void, reject };
      if (!options.batch) {
        void this.runAlone(item, false);
        return;
      }
      this.queue.push(item);
      // Commands delivered in the same read of the socket reach this point before
      // setImmediate fires: they form one batch.
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.drain();
        });
      }
    });
  }

  private drain(): void {
    while (this.running < this.options.maxConcurrent && this.queue.length > 0) {
      const items = this.queue.splice(0, this.options.maxBatch);
      this.running++;
      void this.runBatch(items).finally(() => {
        this.running--;
        this.drain();
      });
    }
  }

  private async runBatch(items: Item[]): Promise<void> {
    let done: Done[];
    const begun = Date.now();
    try {
      done = await this.db.transaction(async (manager) => {
        const memo = new Map<string, Promise<unknown>>();
        const results: Done[] = [];
        for (const item of items) {
          const staged: Staged = { events: [], rows: [] };
          try {
            this.checkDeadline(item.meta);
            const reply = await item.work(this.tx(manager, staged, memo, item.meta));
            results.push({ item, outcome: { ok: true, reply, ...staged } });
          } catch (err) {
            if (!(err instanceof CommandFailure)) throw err;
            results.push({ item, outcome: { ok: false, error: err } });
          }
        }
        await this.record(manager, results);
        return results;
      });
    } catch (err) {
      if (items.length === 1 && !isTransientConflict(err)) {
        this.settle([await this.failed(items[0], err)]);
        return;
      }
      this.logger.warn({ err: (err as Error).message, commands: items.length }, 'batch failed; applying its commands one by one');
      await Promise.all(items.map((item) => this.runAlone(item, true)));
      return;
    }
    this.traceCommit(items, begun);
    this.settle(done);
  }

  /**
   * One command in a transaction of its own; `retry`: it may have been applied meanwhile.
   * A transaction rolled back by a transient conflict runs again (CONFLICT_RETRIES).
   */
  private async runAlone(item: Item, retry: boolean): Promise<void> {
    let done: Done | undefined;
    for (let conflicts = 0; !done; conflicts++) {
      const begun = Date.now();
      try {
        done = await this.db.transaction(async (manager) => {
          if (retry) {
            const stored = await this.storedReply(manager, item.meta.commandId);
            if (stored !== undefined) return { item, outcome: { ok: true as const, reply: replayed(item.options, stored), events: [], rows: [] } };
          }
          this.checkDeadline(item.meta);
          const staged: Staged = { events: [], rows: [] };
          const reply = await item.work(this.tx(manager, staged, new Map(), item.meta));
          const result: Done = { item, outcome: { ok: true, reply, ...staged } };
          await this.record(manager, [result]);
          return result;
        });
        this.traceCommit([item], begun);
      } catch (err) {
        if (isTransientConflict(err) && conflicts < CONFLICT_RETRIES) {
          this.logger.info({ command: item.meta.pattern, conflicts: conflicts + 1, err: (err as Error).message },
            'the command\'s transaction lost a conflict; applying it again');
          // Apart, so that the two sides of a deadlock do not meet again at once.
          await new Promise((r) => setTimeout(r, 5 + Math.floor(Math.random() * 20) * (conflicts + 1)));
          continue;
        }
        done = await this.failed(item, err);
      }
    }
    this.settle([done]);
  }

  /**
   * A command whose transaction failed. When it failed on its own command id, a delivery
   * of the same command (one not flagged redelivered, e.g. published again by the client
   * after a lost confirm, or handled at the same time) was applied first: answer its reply.
   */
  private async failed(item: Item, err: unknown): Promise<Done> {
    if (isUniqueViolation(err, 'applied_commands_pkey')) {
      const stored = await this.storedReply(this.db.manager, item.meta.commandId).catch(() => undefined);
      if (stored !== undefined) return { item, outcome: { ok: true, reply: replayed(item.options, stored), events: [], rows: [] } };
    }
    return { item, outcome: { ok: false, error: err } };
  }

  /** A `commit` span (its transaction, begun at `begun`) for each command whose trace is recorded. */
  private traceCommit(items: Item[], begun: number): void {
    const tracer = this.options.tracing?.tracer;
    if (!tracer) return;
    for (const { meta } of items) {
      if (!isSampled(meta.traceparent)) continue;
      tracer.startSpan('commit', { startTime: begun, attributes: { 'db.system.name': 'postgresql', 'chat.batch.size': items.length } },
        contextOf(meta.traceparent)).end();
    }
  }

  private tx(manager: EntityManager, staged: Staged, memo: Map<string, Promise<unknown>>, meta: CommandMeta): Tx {
    return {
      manager,
      emit: (definition, payload, options) => {
        // The event belongs to the trace of the command that caused it (one batch holds many).
        const event = stageEvent(definition, payload, new Date(), meta.traceparent, options);
        staged.events.push(event);
        return event;
      },
      insertLater: (into, row) => void staged.rows.push({ into: into as StagedRows<unknown>, row }),
      memo: <T>(key: string, load: () => Promise<T>) => {
        let value = memo.get(key) as Promise<T> | undefined;
        if (!value) {
          value = load();
          memo.set(key, value);
        }
        return value;
      },
    };
  }

  /**
   * Writes the command ids with their replies, the events and the staged rows (messages) of
   * the commands that succeeded, in one statement: the rows take their events' positions in
   * it, and the outbox's lock window (see OutboxRelay) is this statement and the COMMIT.
   */
  private async record(manager: EntityManager, results: Done[]): Promise<void> {
    const applied = results.flatMap((r) => (r.outcome.ok && UUID.test(r.item.meta.commandId) ? [r] : []));
    const rows = results.flatMap((r) => (r.outcome.ok ? r.outcome.rows : []));
    const staged = [...new Set(rows.map((r) => r.into))].map((into) => (events: string, param: number) =>
      into.withEvents(rows.filter((r) => r.into === into).map((r) => r.row), events, param));
    await insertOutbox(manager, results.flatMap((r) => (r.outcome.ok ? r.outcome.events : [])), {
      ids: applied.map((r) => r.item.meta.commandId),
      replies: applied.map((r) => {
        const reply = (r.outcome as { reply: unknown }).reply;
        return JSON.stringify(r.item.options.storedReply ? r.item.options.storedReply(reply) : reply ?? {});
      }),
    }, staged);
  }

  private settle(done: Done[]): void {
    const events: StagedEvent[] = [];
    const afterPublish: Done[] = [];
    for (const entry of done) {
      const { item, outcome } = entry;
      if (outcome.ok) {
        events.push(...outcome.events);
        if (item.options.replyAfterPublish) afterPublish.push(entry);
        else item.resolve(outcome.reply);
      } else {
        item.reject(outcome.error);
      }
    }
    const woken = this.relay.committed(events);
    if (afterPublish.length === 0) return;
    const published = woken.then(() => this.relay.published(afterPublish.flatMap((d) => (d.outcome as Staged).events)));
    for (const { item, outcome } of afterPublish) void published.then(() => item.resolve((outcome as { reply: unknown }).reply));
  }

  private checkDeadline(meta: CommandMeta): void {
    // The caller stopped waiting: applying now would act on a request answered 503/504.
    if (meta.deadline > 0 && Date.now() > meta.deadline) throw commandFailure('unavailable', 'deadline_passed');
  }

  private async storedReply(manager: EntityManager, commandId: string): Promise<unknown> {
    if (!UUID.test(commandId)) return undefined;
    const rows: Array<{ reply: unknown }> = await preparedQuery(manager, 'SELECT reply FROM applied_commands WHERE command_id = $1', [commandId]);
    return rows[0]?.reply;
  }
}
