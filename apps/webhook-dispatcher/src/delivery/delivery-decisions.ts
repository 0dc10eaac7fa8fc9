import { isSecretName, REDACTED, redactText } from '@app/common';
import type { PlatformAnswer } from '../bridges/platform-answers';
import { parseReply } from '../replies/reply';
import { DeliveryJob } from './delivery-job';
import { delayTier, isRetryable, nextAttemptDelay, parseRetryAfter, retryDelayTiers } from './retry-policy';

/** What one attempt came to: the receiver's answer, or why there was none. */
export type AttemptResult =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: string; truncated: boolean; durationMs: number }
  | { kind: 'failure'; failure: 'refused' | 'timeout' | 'connection' | 'invalid_url' | 'busy' | 'unsignable'; message: string; durationMs: number };

/** A row of `webhook_attempts`. */
export interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  status: number | null;
  error: string | null;
  responseExcerpt: string | null;
  /** The answer's headers, bounded and redacted (see keptHeaders); null without an answer. */
  responseHeaders: Record<string, string> | null;
}

export type DeliveryStatus = 'delivered' | 'retrying' | 'failed';

/** What `webhook_deliveries` says after the attempt. */
export interface DeliveryState {
  status: DeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  /**
   * A retry's job is back from its delay queue by then at the latest (parked, plus its tier:
   * a queue expires only its head); null when nothing is parked.
   */
  parkedUntil: Date | null;
}

export interface RetryPlan {
  job: DeliveryJob;
  /** The message's expiration in its delay queue. */
  delayMs: number;
  /** Which delay queue (one per tier of the schedule). */
  tierMs: number;
}

export type ReplyOutcome = ReturnType<typeof parseReply>;

/** The delivery's state after the attempt, given its status. */
type StateOf = (s: DeliveryStatus, nextAttemptAt?: Date | null, parkedUntil?: Date | null) => DeliveryState;

export interface Decision {
  record: AttemptRecord;
  state: DeliveryState;
  retry: RetryPlan | null;
  reply: ReplyOutcome;
}

/** At most this much of a receiver's answer is kept with the attempt. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** Failures no later attempt can cure: the URL is not one, or its address is closed to us. */
const PERMANENT_FAILURES = new Set(['refused', 'invalid_url']);

/**
 * What an attempt means for its delivery, decided without I/O: what to record, whether and
 * when to try again (and in which delay queue), whether the answer is a reply to post.
 * The worker around it only sends, records and publishes.
 */
export class DeliveryDecisions {
  /**
   * The delay queues' tiers, shortest first: each wait of the schedule with its largest
   * jitter, and the Retry-After ceiling (retryDelayTiers). A queue expires only its head, so
   * a queue must hold the waits of one entry only: were the tiers the bare waits, a first
   * retry jittered to 5.3 s would go to the 5 min queue and wait there behind second retries.
   */
  readonly tiers: readonly number[];

  constructor(
    private readonly schedule: readonly number[],
    private readonly random: () => number = Math.random,
  ) {
    this.tiers = retryDelayTiers(schedule);
  }

  decide(o: {
    job: DeliveryJob;
    result: AttemptResult;
    startedAt: Date;
    /** Values that must not reach the records: the signing secret, the JWT, the URL's parameters. */
    secrets: readonly string[];
    now: Date;
    /**
     * A bridge's attempt: what its platform's answer means (classifyPlatformAnswer), which
     * decides instead of the HipChat rules; its reason is the record's error when not delivered.
     */
    platform?: PlatformAnswer;
  }): Decision {
    const { job, result, secrets, platform } = o;
    const response = result.kind === 'response' ? result : null;
    const status = response?.status ?? null;
    const said = result.kind === 'failure' ? `${result.failure}: ${result.message}` : platform && platform.outcome !== 'delivered' ? platform.reason : null;
    const error = said !== null ? clean(redactText(said, secrets)).slice(0, 1000) : null;
    const record: AttemptRecord = {
      deliveryId: job.deliveryId,
      attempt: job.attempt,
      startedAt: o.startedAt,
      durationMs: Math.max(0, Math.round(result.durationMs)),
      status,
      error,
      responseExcerpt: response ? excerpt(response.body, secrets) : null,
      responseHeaders: response ? keptHeaders(response.headers, secrets) : null,
    };
    const state: StateOf = (s, nextAttemptAt = null, parkedUntil = null) => ({
      status: s, attempts: job.attempt, lastStatus: status, lastError: error, nextAttemptAt, parkedUntil,
    });

    if (platform) return this.decideBridge(job, platform, record, state, o.now);
    if (response && status !== null && status >= 200 && status <= 299) {
      const reply = parseReply({
        status, contentType: response.headers['content-type'], body: response.body, truncated: response.truncated,
      });
      return { record, state: state('delivered'), retry: null, reply };
    }
    const none: ReplyOutcome = { kind: 'none' };
    const retryable = result.kind === 'failure' ? !PERMANENT_FAILURES.has(result.failure) : isRetryable(status);
    // A redelivery is the one attempt an operator asked for: its failure is the delivery's outcome.
    if (!retryable || job.redelivery) return { record, state: state('failed'), retry: null, reply: none };

    const retryAfterMs = response ? parseRetryAfter(response.headers['retry-after'], o.now) : null;
    return this.retryOrFail(job, retryAfterMs, record, state, o.now);
  }

  /** A bridge's attempt, as its platform's answer says: no reply is read from a platform. */
  private decideBridge(job: DeliveryJob, platform: PlatformAnswer, record: AttemptRecord, state: StateOf, now: Date): Decision {
    const none: ReplyOutcome = { kind: 'none' };
    if (platform.outcome === 'delivered') return { record, state: state('delivered'), retry: null, reply: none };
    // `never` fails the delivery too: the bridge is disabled by the worker, and its lane moves on.
    if (platform.outcome !== 'retry' || job.redelivery) return { record, state: state('failed'), retry: null, reply: none };
    return this.retryOrFail(job, platform.afterMs ?? null, record, state, now);
  }

  /** The next attempt on the schedule (not before `retryAfterMs`), or failed once the schedule is spent. */
  private retryOrFail(job: DeliveryJob, retryAfterMs: number | null, record: AttemptRecord, state: StateOf, now: Date): Decision {
    const none: ReplyOutcome = { kind: 'none' };
    // After a recover the schedule starts again: its waits count from the first attempt after `scheduleOffset`.
    const sinceScheduleStart = job.attempt - Math.min(job.scheduleOffset ?? 0, job.attempt - 1);
    const delay = nextAttemptDelay({ attempt: sinceScheduleStart, schedule: this.schedule, retryAfterMs, random: this.random });
    if (delay === null) return { record, state: state('failed'), retry: null, reply: none };
    const tierMs = this.tiers[delayTier(delay, this.tiers)];
    // A queue expires only its head: a wait longer than its tier would hold up the shorter ones behind it.
    const delayMs = Math.max(0, Math.min(delay, tierMs));
    return {
      record,
      state: state('retrying', new Date(now.getTime() + delayMs), new Date(now.getTime() + tierMs)),
      retry: { job: { ...job, attempt: job.attempt + 1 }, delayMs, tierMs },
      reply: none,
    };
  }
}

/** At most this many of an answer's headers are kept, each value cut to HEADER_VALUE_MAX characters. */
export const RESPONSE_HEADERS_MAX = 50;
const HEADER_VALUE_MAX = 500;

/**
 * An answer's headers as the delivery log shows them: bounded (a receiver may send many or
 * long ones), our secrets redacted wherever a receiver echoed them, and the values of
 * headers that carry credentials (cookies, tokens) hidden: they are the receiver's, not ours to show.
 */
export function keptHeaders(headers: Record<string, string>, secrets: readonly string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers).slice(0, RESPONSE_HEADERS_MAX)) {
    const key = clean(name.toLowerCase()).slice(0, 100);
    kept[key] = key === 'set-cookie' || key === 'cookie' || isSecretName(key)
      ? REDACTED
      : clean(redactText(String(value), secrets)).slice(0, HEADER_VALUE_MAX);
  }
  return kept;
}

/** PostgreSQL text holds no NUL. */
const clean = (text: string) => text.replace(/\u0000/g, '');

/**
 * The first KiB of an answer, with the secrets redacted first (a secret cut in half by the
 * limit would otherwise show its first part).
 */
export function excerpt(body: string, secrets: readonly string[]): string | null {
  if (!body) return null;
  const longest = secrets.reduce((n, s) => Math.max(n, s.length), 0);
  const window = body.slice(0, RESPONSE_EXCERPT_BYTES + 8 * longest + 64);
  const redacted = clean(redactText(window, secrets));
  const bytes = Buffer.from(redacted, 'utf8');
  if (bytes.length <= RESPONSE_EXCERPT_BYTES) return redacted;
  // Cut at a character boundary: a split UTF-8 sequence decodes to U+FFFD, dropped.
  return bytes.subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8').replace(/\uFFFD+$/, '');
}

/**
 * Whether a job's attempt is made already by the delivery's recorded state: it ended
 * (unless the job is an operator's redelivery), or its attempts reached this job's number (the record of an attempt is written after its
 * retry is parked, so the chain goes on from there).
 */
const ENDED = new Set(['delivered', 'failed', 'cancelled']);

export function attemptAlreadyMade(job: Pick<DeliveryJob, 'attempt' | 'redelivery'>, progress: { status: string; attempts: number } | undefined): boolean {
  if (!progress) return false;
  // A redelivery is asked for whatever the status: only its own attempt, once made, stops it.
  // Otherwise a delivery that ended (delivered, or failed for good by another chain of the same
  // delivery) takes no more attempts; a recover sets it `retrying` before it queues its jobs.
  return (ENDED.has(progress.status) && !job.redelivery) || progress.attempts >= job.attempt;
}
