import { AppLogger } from '@app/common';
import { isEnabled, WebhookEventName, WebhookRegistration } from '@app/contracts';
import { PatternCache, RegistrationIndex } from './matching';

/** Every registration, and the registrations' version of that snapshot. */
export interface RegistrationSnapshot {
  registrations: WebhookRegistration[];
  /** Forms removed or replaced lately, for events caused before (see WebhookRegistration.removedVersion). */
  removed?: WebhookRegistration[];
  version: number;
}

/** Where a snapshot of every registration comes from (the rooms service, over RPC). */
export type RegistrationSource = () => Promise<RegistrationSnapshot>;

export interface RegistrationsOptions {
  /** Notices arriving within this window cause one reload. */
  debounceMs?: number;
  /** Wait after a failed load before the next. */
  retryMs?: number;
  /** Before the first load: whether the source can answer yet (polled, so that no load waits for a timeout). */
  sourceReady?: () => Promise<boolean>;
}

/**
 * This replica's index (room, event) → registrations: loaded whole at start, and again on
 * every `webhook.registrations-changed.v1` notice, every reconnection to the broker (a
 * notice published while disconnected is missed), and before matching an event stamped
 * with a newer registrations' version than the index's (upTo): a registration change is
 * in force for every event caused after its call answered, on every replica, whenever the
 * notice arrives. In the common case (no change since the last load) an event costs no
 * query at all.
 */
export class Registrations {
  private index = new RegistrationIndex([]);
  private byId = new Map<number, WebhookRegistration>();
  /** The registrations' version of the loaded snapshot (0: nothing loaded yet). */
  private snapshotVersion = 0;
  /** When the request behind the current snapshot was sent (0: nothing loaded yet). */
  private loadedFrom = 0;
  private running: Promise<void> | null = null;
  private dirty = false;
  private debounce: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;
  readonly patterns = new PatternCache();
  private readonly debounceMs: number;
  private readonly retryMs: number;
  private readonly sourceReady: () => Promise<boolean>;

  constructor(private readonly source: RegistrationSource, private readonly logger: AppLogger, options: RegistrationsOptions = {}) {
    this.debounceMs = options.debounceMs ?? 50;
    this.retryMs = options.retryMs ?? 1_000;
    this.sourceReady = options.sourceReady ?? (async () => true);
  }

  get loaded(): boolean {
    return this.loadedFrom > 0;
  }

  /** The registrations' version the index holds. */
  get version(): number {
    return this.snapshotVersion;
  }

  get size(): number {
    return this.byId.size;
  }

  /** Registrations in the index that are disabled (the rooms service disabled them for failing). */
  get disabled(): number {
    let n = 0;
    for (const r of this.byId.values()) if (!isEnabled(r)) n++;
    return n;
  }

  /** The registrations for a room's event, as they were in force at `version` (an event's stamp; absent: now). */
  forEvent(roomId: number | null, event: WebhookEventName, version?: number): WebhookRegistration[] {
    // An event without a room (none today) can only concern group-wide registrations.
    return this.index.forEvent(roomId ?? 0, event, version);
  }

  /** A registration in force now. */
  get(webhookId: number): WebhookRegistration | undefined {
    return this.byId.get(webhookId);
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
   * Loads a snapshot; calls made while one is loading are served by one more load after it
   * (a change may have been committed after the running load read its snapshot).
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
      const { registrations, removed, version } = await this.source();
      this.index = new RegistrationIndex(registrations, removed);
      this.byId = new Map(registrations.map((r) => [r.id, r]));
      this.snapshotVersion = version;
      this.loadedFrom = startedAt;
      this.logger.debug({ registrations: this.byId.size, version }, 'webhook registrations loaded');
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.debounce) clearTimeout(this.debounce);
    if (this.retry) clearTimeout(this.retry);
  }
}
