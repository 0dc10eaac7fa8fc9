import { AppLogger } from '@app/common';
import { isEnabled, WebhookEventName, WebhookRegistration } from '@app/contracts';
import { PatternCache, RegistrationIndex } from './matching';

/** Every registration (or those changed since a version), and the registrations' version of that snapshot. */
export interface RegistrationSnapshot {
  registrations: WebhookRegistration[];
  /** Forms removed or replaced lately, for events caused before (see WebhookRegistration.removedVersion). */
  removed?: WebhookRegistration[];
  version: number;
}

/** Where a snapshot of every registration comes from (the rooms service, over RPC). */
export type RegistrationSource = () => Promise<RegistrationSnapshot>;

/**
 * Where the changes since a version come from (the rooms service, over RPC): the forms
 * written and the forms removed after `since`, and the version of that snapshot.
 */
export type RegistrationChangesSource = (since: number) => Promise<RegistrationSnapshot>;

export interface RegistrationsOptions {
  /** Notices arriving within this window cause one reload. */
  debounceMs?: number;
  /** Wait after a failed load before the next. */
  retryMs?: number;
  /** Before the first load: whether the source can answer yet (polled, so that no load waits for a timeout). */
  sourceReady?: () => Promise<boolean>;
  /** Once the index is loaded, it is brought up to date with the changes since its version (absent: every load is full). */
  changes?: RegistrationChangesSource;
  /** The longest the index goes on changes alone: a full load at least this often (default an hour; see fullLoadDue). */
  fullLoadMaxAgeMs?: number;
}

/**
 * This replica's index (room, event) → registrations: loaded whole at start, and brought up
 * to date on every `webhook.registrations-changed.v1` notice, every reconnection to the
 * broker (a notice published while disconnected is missed), and before matching an event
 * stamped with a newer registrations' version than the index's (upTo): a registration
 * change is in force for every event caused after its call answered, on every replica,
 * whenever the notice arrives. Bringing it up to date loads only the changes since the
 * index's version (with a `changes` source): what the first event after a change waits
 * for grows with the change, not with the registrations. It is loaded whole again now and
 * then (fullLoadDue). In the common case (no change since the last load) an event costs no
 * query at all.
 */
export class Registrations {
  private index = new RegistrationIndex([]);
  /** The registrations' version of the loaded snapshot (0: nothing loaded yet). */
  private snapshotVersion = 0;
  /** When the request behind the current snapshot, or the last changes applied to it, was sent (0: nothing loaded yet). */
  private loadedFrom = 0;
  /** When the request behind the last full load was sent. */
  private fullyLoadedFrom = 0;
  /** A load of the changes failed: the next load is full. */
  private fullLoadNext = false;
  private running: Promise<void> | null = null;
  private dirty = false;
  private debounce: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private fullLoadTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  readonly patterns = new PatternCache();
  private readonly debounceMs: number;
  private readonly retryMs: number;
  private readonly sourceReady: () => Promise<boolean>;
  private readonly changes: RegistrationChangesSource | undefined;
  private readonly fullLoadMaxAgeMs: number;

  constructor(private readonly source: RegistrationSource, private readonly logger: AppLogger, options: RegistrationsOptions = {}) {
    this.debounceMs = options.debounceMs ?? 50;
    this.retryMs = options.retryMs ?? 1_000;
    this.sourceReady = options.sourceReady ?? (async () => true);
    this.changes = options.changes;
    this.fullLoadMaxAgeMs = options.fullLoadMaxAgeMs ?? 3_600_000;
  }

  get loaded(): boolean {
    return this.loadedFrom > 0;
  }

  /** The registrations' version the index holds. */
  get version(): number {
    return this.snapshotVersion;
  }

  get size(): number {
    return this.index.size;
  }

  /** Registrations in the index that are disabled (the rooms service disabled them for failing). */
  get disabled(): number {
    let n = 0;
    for (const r of this.index.registrations()) if (!isEnabled(r)) n++;
    return n;
  }

  /** The registrations for a room's event, as they were in force at `version` (an event's stamp; absent: now). */
  forEvent(roomId: number | null, event: WebhookEventName, version?: number): WebhookRegistration[] {
    // An event without a room (none today) can only concern group-wide registrations.
    return this.index.forEvent(roomId ?? 0, event, version);
  }

  /** A registration in force now. */
  get(webhookId: number): WebhookRegistration | undefined {
    return this.index.get(webhookId);
  }

  /** A registration as it was in force at `version`, removed or changed since or not. */
  at(webhookId: number, version: number): WebhookRegistration | undefined {
    return this.index.at(webhookId, version);
  }

  /** Loads until a load succeeds (the rooms service may still be starting). */
  async loadFirst(): Promise<void> {
    for (let polls = 0; !this.stopped && !(await this.sourceReady()); polls++) {
      if (polls % 20 === 0) this.logger.info('waiting for the rooms service to load the webhook registrations');
      await new Promise((r) => setTimeout(r, 250).unref());
    }
    for (let tries = 1; !this.stopped; tries++) {
      try {
        await this.reload();
        return;
      } catch (err) {
        this.logger.warn({ err: (err as Error).message, tries }, 'could not load the webhook registrations; trying again');
        await new Promise((r) => setTimeout(r, this.retryMs).unref());
      }
    }
  }

  /** A change notice (or a reconnection): reload soon, once for a burst of notices. */
  changed(): void {
    if (this.stopped) return;
    if (!this.loaded) {
      // loadFirst loads when the source is ready; a notice during its load makes it load again.
      if (this.running) this.dirty = true;
      return;
    }
    if (this.debounce) return;
    this.debounce = setTimeout(() => {
      this.debounce = null;
      this.reload().catch((err) => {
        this.logger.warn({ err: (err as Error).message }, 'could not reload the webhook registrations; trying again');
        if (!this.stopped && !this.retry) {
          this.retry = setTimeout(() => {
            this.retry = null;
            this.changed();
          }, this.retryMs);
        }
      });
    }, this.debounceMs);
  }

  /**
   * Makes sure the index holds every registration change up to `version` (an event's
   * stamp): loads a new snapshot when it is older. False when it could not be brought up
   * to date (the rooms service did not answer): the event must not be matched yet.
   */
  async upTo(version: number): Promise<boolean> {
    if (this.snapshotVersion >= version) return true;
    try {
      // A load already running may have read its snapshot before the change: reload() runs one more after it.
      await this.reload();
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, version }, 'could not bring the webhook registrations up to date');
      return false;
    }
    return this.snapshotVersion >= version;
  }

  /**
   * Makes sure the index is at least as recent as `time` (a job matched by another replica
   * whose index already had a registration this one has not seen yet): reloads once if not.
   */
  async freshSince(time: number): Promise<void> {
    if (this.loadedFrom >= time) return;
    await this.reload().catch((err) => this.logger.warn({ err: (err as Error).message }, 'could not reload the webhook registrations'));
  }

  /**
   * Brings the index up to date (loads the changes since its version, or every
   * registration); calls made while a load runs are served by one more load after it (a
   * change may have been committed after the running load read its snapshot).
   */
  reload(): Promise<void> {
    this.dirty = true;
    if (!this.running) {
      this.running = this.drain().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async drain(): Promise<void> {
    while (this.dirty && !this.stopped) {
      this.dirty = false;
      const startedAt = Date.now();
      if (this.changes && this.loaded && !this.fullLoadDue(startedAt)) await this.loadChanges(this.changes, startedAt);
      else await this.loadAll(startedAt);
    }
  }

  /**
   * Whether the next load must be full rather than the changes: after a failed load of the
   * changes (whatever failed, a full load does not depend on it: a rooms service of the
   * previous version, during a rolling update, does not serve the changes), and when the
   * last full load is older than fullLoadMaxAgeMs. The rooms service keeps removed forms 7
   * days (webhooks_removed is pruned): changes since a version older than that would miss
   * removals, and the index would keep a deleted webhook. A full load also drops the
   * removed forms the index no longer needs: changes add them, never drop them. A timer
   * makes that load once the bound is reached (armFullLoad), so that the first event after
   * a change seldom waits for it.
   */
  private fullLoadDue(now: number): boolean {
    return this.fullLoadNext || now - this.fullyLoadedFrom >= this.fullLoadMaxAgeMs;
  }

  private async loadAll(startedAt: number): Promise<void> {
    const { registrations, removed, version } = await this.source();
    this.index = new RegistrationIndex(registrations, removed);
    this.snapshotVersion = version;
    this.loadedFrom = startedAt;
    this.fullyLoadedFrom = startedAt;
    this.fullLoadNext = false;
    this.armFullLoad();
    this.logger.debug({ registrations: this.index.size, version }, 'webhook registrations loaded');
  }

  private async loadChanges(changes: RegistrationChangesSource, startedAt: number): Promise<void> {
    let answer: RegistrationSnapshot;
    try {
      answer = await changes(this.snapshotVersion);
    } catch (err) {
      this.fullLoadNext = true;
      throw err;
    }
    // Not newer than the index: no change since, nothing to apply.
    if (answer.version > this.snapshotVersion) {
      this.index.apply(answer);
      this.snapshotVersion = answer.version;
    }
    this.loadedFrom = startedAt;
    this.logger.debug(
      { written: answer.registrations.length, removed: answer.removed?.length ?? 0, registrations: this.index.size, version: this.snapshotVersion },
      'webhook registrations brought up to date',
    );
  }

  /** The next full load, once the bound is reached (with changes only: without, every load is full). */
  private armFullLoad(): void {
    if (!this.changes || this.stopped) return;
    if (this.fullLoadTimer) clearTimeout(this.fullLoadTimer);
    this.fullLoadTimer = setTimeout(() => {
      this.fullLoadTimer = null;
      // On failure, the next load is full all the same (fullLoadDue).
      this.reload().catch((err) => this.logger.warn({ err: (err as Error).message }, 'could not reload the webhook registrations'));
    }, this.fullLoadMaxAgeMs);
    this.fullLoadTimer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.debounce) clearTimeout(this.debounce);
    if (this.retry) clearTimeout(this.retry);
    if (this.fullLoadTimer) clearTimeout(this.fullLoadTimer);
  }
}
