import { randomUUID } from 'node:crypto';
import { AppLogger, RpcCommandError } from '@app/common';
import { HealthTally, mergeHealth, reportOfTally, tallyOf, WebhookHealthReport } from '@app/contracts';

/** What an attempt came to, as much as its webhook's health needs (DeliveryWorker's AttemptResult fits). */
export type AttemptOutcome =
  | { kind: 'response'; status: number }
  | { kind: 'failure'; failure: string };

/**
 * The short error a report carries: `HTTP 500`, or the kind of failure (`timeout`,
 * `connection`, `refused`, `busy`...). Never a body or a message, which may quote the URL
 * and its credentials. Null: delivered.
 */
export function healthErrorOf(result: AttemptOutcome): string | null {
  if (result.kind === 'response') return result.status >= 200 && result.status <= 299 ? null : `HTTP ${result.status}`;
  return result.failure;
}

/**
 * Sends one report command (webhooks.report-health.v1) to the rooms service, under
 * `commandId` (the rooms service applies an id once).
 */
export type HealthReportSender = (reports: WebhookHealthReport[], commandId: string) => Promise<unknown>;

export interface HealthReporterOptions {
  /** While a webhook's outcome stays the same, at most one report of it this often (ms). */
  intervalMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

interface Known {
  /** Whether its latest attempt failed: a change is reported at once. */
  failing: boolean;
  /** When a report of it was last sent. */
  sentAt: number;
}

/** A webhook not attempted for this long is forgotten (its next outcome is then reported at once). */
const FORGET_AFTER_MS = 10 * 60_000;

/**
 * Tells the rooms service how each webhook's attempts go, cheaply enough for the hot path:
 * an attempt only adds to an in-memory tally (mergeHealth); the tallies are sent as one
 * command for all pending webhooks, at most once a second per webhook while its outcome
 * stays the same, at once when it changes (the first failure after successes, the first
 * success after failures). One command is in flight at a time. A report that was not
 * answered (the rooms service restarting, the broker away, a reply lost) is sent again as it
 * was, under its command id, before anything newer: the rooms service applies a command id
 * once, so each outcome counts once whether the first send reached it or not. What came
 * since waits for the next report. Only a report the service refuses as malformed is dropped.
 */
export class HealthReporter {
  private readonly pending = new Map<number, HealthTally>();
  /** Bridges whose platform said "never again", with its reason: reported at once, to be disabled now. */
  private readonly gone = new Map<number, string>();
  private readonly urgent = new Set<number>();
  private readonly known = new Map<number, Known>();
  private readonly intervalMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private sending: Promise<void> | null = null;
  /** The report sent and not answered: sent again, as it was, before anything newer. */
  private unanswered: { commandId: string; reports: WebhookHealthReport[]; webhooks: number } | null = null;
  private unreachable = false;
  private stopped = false;

  constructor(private readonly send: HealthReportSender, private readonly logger: AppLogger, options: HealthReporterOptions = {}) {
    this.intervalMs = options.intervalMs ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  /** One attempt's outcome (the delivery worker calls this once per attempt, after deciding). */
  observe(webhookId: number, result: AttemptOutcome): void {
    const error = healthErrorOf(result);
    const at = this.now();
    const tally = tallyOf(at, error);
    const held = this.pending.get(webhookId);
    this.pending.set(webhookId, held ? mergeHealth(held, tally) : tally);
    const known = this.known.get(webhookId);
    const failing = error !== null;
    if (!known) {
      this.known.set(webhookId, { failing, sentAt: -Infinity });
      this.urgent.add(webhookId);
    } else if (known.failing !== failing) {
      known.failing = failing;
      this.urgent.add(webhookId);
    }
    this.schedule(this.dueAt(webhookId));
  }

  /**
   * A bridge's platform said it will never take posts again (classifyPlatformAnswer's `never`):
   * reported at once, with the attempt's failure already observed, for the rooms service to
   * disable it now (not when the thresholds are crossed).
   */
  disableNow(webhookId: number, reason: string): void {
    this.gone.set(webhookId, reason.slice(0, 200));
    if (!this.pending.has(webhookId)) this.pending.set(webhookId, tallyOf(this.now(), 'gone'));
    this.urgent.add(webhookId);
    this.schedule(this.now());
  }

  /** Webhooks with outcomes not yet reported, in a report not answered or waiting (tests, shutdown). */
  get pendingCount(): number {
    const waiting = new Set(this.pending.keys());
    for (const r of this.unanswered?.reports ?? []) waiting.add(r.webhookId);
    return waiting.size;
  }

  /** Sends what is pending now, whatever the interval (shutdown); waits for a send in flight first. */
  async flush(): Promise<void> {
    if (this.sending) await this.sending;
    // A report not answered goes first; still unanswered, nothing newer may overtake it.
    if (this.unanswered) await this.sendDue();
    if (this.unanswered) return;
    for (const id of this.pending.keys()) this.urgent.add(id);
    await this.sendDue();
  }

  /** Stops the timer; what is pending is lost unless flushed first. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private dueAt(webhookId: number): number {
    if (this.urgent.has(webhookId)) return this.now();
    return (this.known.get(webhookId)?.sentAt ?? -Infinity) + this.intervalMs;
  }

  /** Arms the timer for `due` unless it fires sooner already; a send in flight re-arms it when it ends. */
  private schedule(due: number): void {
    if (this.stopped || this.sending || this.timerAt <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      void this.sendDue();
    }, Math.max(0, due - this.now()));
  }

  /** After a send: the timer for the earliest webhook still pending (a report not answered: an interval on). */
  private reschedule(): void {
    if (this.unanswered) {
      this.schedule(this.now() + this.intervalMs);
      return;
    }
    let due = Infinity;
    for (const id of this.pending.keys()) due = Math.min(due, this.dueAt(id));
    if (due !== Infinity) this.schedule(due);
  }

  private async sendDue(): Promise<void> {
    if (this.sending) return;
    if (this.unanswered) {
      await this.sendReport(this.unanswered);
      return;
    }
    const now = this.now();
    const batch = new Map<number, HealthTally>();
    for (const [id, tally] of this.pending) {
      if (this.urgent.has(id) || this.dueAt(id) <= now) batch.set(id, tally);
    }
    if (batch.size === 0) {
      this.reschedule();
      return;
    }
    for (const id of batch.keys()) {
      this.pending.delete(id);
      this.urgent.delete(id);
      const known = this.known.get(id);
      if (known) known.sentAt = now;
    }
    this.forgetIdle(now);
    const reports = [...batch].map(([id, tally]) => {
      const reason = this.gone.get(id);
      this.gone.delete(id);
      return reason === undefined ? reportOfTally(id, tally) : { ...reportOfTally(id, tally), disableNow: reason };
    });
    await this.sendReport({ commandId: randomUUID(), reports, webhooks: batch.size });
  }

  private async sendReport(report: { commandId: string; reports: WebhookHealthReport[]; webhooks: number }): Promise<void> {
    this.sending = this.send(report.reports, report.commandId).then(
      () => this.sent(),
      (err: unknown) => this.notSent(report, err),
    ).finally(() => {
      this.sending = null;
      this.reschedule();
    });
    await this.sending;
  }

  private sent(): void {
    this.unanswered = null;
    if (this.unreachable) this.logger.info('webhook health reports reach the rooms service again');
    this.unreachable = false;
  }

  private notSent(report: { commandId: string; reports: WebhookHealthReport[]; webhooks: number }, err: unknown): void {
    if (err instanceof RpcCommandError && err.error.code === 'invalid') {
      // Sending it again would be refused again.
      this.unanswered = null;
      this.logger.error({ err: err.message, problem: err.error.detail?.problem, webhooks: report.webhooks }, 'webhook health report refused; dropped');
      return;
    }
    // Applied or not, it goes again as it was: its command id counts it once.
    this.unanswered = report;
    // Stopping (the broker closing under the last report) is no outage worth a warning.
    if (!this.unreachable && !this.stopped) {
      this.logger.warn({ err: (err as Error)?.message, webhooks: report.webhooks }, 'could not report webhook health; sending it again');
    }
    this.unreachable = true;
  }

  private forgetIdle(now: number): void {
    for (const [id, known] of this.known) {
      if (known.sentAt < now - FORGET_AFTER_MS && !this.pending.has(id)) this.known.delete(id);
    }
  }
}
