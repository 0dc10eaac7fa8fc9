import {
  AppLogger, bareUrl, maskedBridgeUrl, redactText, SecretBox, contextOf, endWithError, GuardedHttpClient, HandlerOutcome, traceFields, traceparentOf, Tracing, withSpan,
} from '@app/common';
import { Context, Span, SpanKind } from '@opentelemetry/api';
import { isBridge, isEnabled, WebhookRegistration } from '@app/contracts';
import type { BridgeRegistration } from '../bridges/bridge-delivery';
import { BridgeSender } from '../bridges/bridge-sender';
import type { PlatformAnswer } from '../bridges/platform-answers';
import type { AttemptOutcome } from '../health/health-reporter';
import { Registrations } from '../registrations/registrations';
import { ReplyPoster } from '../replies/reply-poster';
import { attemptAlreadyMade, AttemptResult, Decision, DeliveryDecisions, RetryPlan } from './delivery-decisions';
import { DeliveryJob } from './delivery-job';
import { DeliveryQueues, JobLease } from './delivery-queues';
import { DeliveryRequest, deliveryRequest, signingSecretOf } from './delivery-request';
import { requestThroughGuard } from './outbound-request';
import { AttemptToRecord, DeliveryProgress, DeliveryRepository } from './delivery.repository';
import { BatchWriter } from './batch-writer';
import { disabledAttempt } from './disabled-webhook';
import { deliveryKindOf, type DeliveryMetrics } from './delivery-metrics';

export interface DeliveryWorkerOptions {
  /** The per-attempt time limit (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** Opens the registrations' signing secrets, which travel sealed (SECRETS_KEYS). */
  secrets: SecretBox;
  /** An attempt still in flight after this long gives its queue slot back. */
  detachAfterMs?: number;
  /** Attempts in flight without a slot, at most (sockets and memory are finite). */
  maxDetached?: number;
  /**
   * Attempts in flight to one slow receiver, at most: past it, a job is not sent but
   * recorded as a failed attempt ('busy') and retried on the schedule, so that a receiver
   * hanging on every request holds a bounded number of sockets rather than one per event.
   */
  maxInFlightPerSlowWebhook?: number;
  /** Told each attempt's outcome (the webhook's health, reported to the rooms service). */
  health?: { observe(webhookId: number, result: AttemptOutcome): void };
  /**
   * Writes the records of ordered deliveries' attempts (attemptInLane). A lane waits for its
   * previous record before its next attempt: a writer that lingers would pace the lane at one
   * attempt per linger. Default: the recorder.
   */
  laneRecorder?: BatchWriter<AttemptToRecord>;
  /** Where attempts and ended deliveries are counted (in memory). */
  metrics?: DeliveryMetrics;
  /** Each attempt is a span (a child of its job's trace) whose traceparent the POST carries. */
  tracing?: Tracing;
  /** Sends bridges' posts (paced by their shared budgets); absent: one of the worker's own, not paced (tests). */
  bridges?: BridgeSender;
  /** Told when a platform says a bridge will never take posts again: it is disabled at once, with the reason. */
  bridgeGone?: (bridgeId: number, reason: string) => void;
}

/** What sending an attempt came to, for the decision. */
interface Sent {
  result: AttemptResult;
  /** What the request carried that no record or log may show. */
  secrets: readonly string[];
  /** The attempt's span, for its reply's trace. */
  trace?: Context;
  /** A bridge's attempt: what its platform's answer means. */
  platform?: PlatformAnswer;
  /** The job as attempted (a bridge's: with the posts accepted so far). */
  made: DeliveryJob;
}

/** What one attempt of a delivery came to: the next attempt of the same delivery, or none (it ended). */
export interface NextAttempt {
  /** The retry to make, `retryInMs` from now; null: the delivery ended (delivered, failed, cancelled). */
  next: DeliveryJob | null;
  retryInMs: number;
  /** Settles once the attempt is recorded, or its record failed (absent: it was before the answer). */
  recorded?: Promise<void>;
  /**
   * The deliveries coalesced into this attempt's post (attemptInLane's `companions`), in order:
   * each one's next attempt, or null once it ended. They shared the attempt's outcome.
   */
  companions?: Array<DeliveryJob | null>;
}

/**
 * What differs between the two ways an attempt is made (DeliveryWorker.make): the concurrent
 * one (handle) and the ordered one (attemptInLane). Made afresh for each attempt.
 */
interface AttemptWay<R> {
  /** The answer when the delivery ended without a request (its webhook gone or disabled). */
  readonly ended: R;
  /** Deliveries of the same bridge coalesced into this attempt's post (the ordered way only). */
  readonly companions: readonly DeliveryJob[];
  /** Whether the bridge's posting budget was taken for the first post already (the lane paces its bridges). */
  readonly paced: boolean;
  /** Where the attempt's record is written. */
  readonly recorder: BatchWriter<AttemptToRecord>;
  /** A result standing for a request not made now, or null to make it. */
  withheld(): AttemptResult | null;
  /** Waits for the request under way (the concurrent way may give its slot back meanwhile). */
  sending(sending: Promise<AttemptResult>): Promise<AttemptResult>;
  /** Puts the retry where it waits: null once it is safe, else the answer (the attempt is then left unrecorded). */
  parkRetry(retry: RetryPlan): Promise<R | null>;
  /** Told of the record being written, before the reply is posted (resolves once the way has done with it). */
  recording(recorded: Promise<void>): Promise<void> | void;
  /** The answer once the attempt is recorded (or being so) and its reply posted; `companions`: theirs, in order. */
  answer(decision: Decision, companions: readonly Decision[]): R;
}

/**
 * Makes one attempt of a delivery: signs and POSTs the envelope through the outbound guard
 * (a bridge: posts its message in its platform's format, postToBridge), then parks the retry
 * if there is one, records the attempt and posts a reply. What each
 * outcome means is DeliveryDecisions'; this class does the I/O. Two entry points, one path
 * (make): `handle`, a concurrent delivery's job (its retry parked in a delay queue, its
 * message acknowledged only once the broker holds the retry and the attempt is recorded),
 * and `attemptInLane`, an ordered delivery's (its retry answered to its lane).
 *
 * Slow receivers: the deliveries queue hands a replica WEBHOOK_CONCURRENCY jobs at a time.
 * A receiver that hangs on every request would soon hold all of them (200 events/s to a
 * receiver hanging 10 s is 2,000 requests in flight), and every other receiver would wait.
 * So an attempt still in flight after `detachAfterMs` gives its slot back: a guard copy of
 * the job is parked in the in-flight queue until after the attempt's deadline, then the
 * message is acknowledged. The guard copy comes back to the deliveries queue and is dropped
 * if the attempt was recorded; if this process died meanwhile, it makes the attempt. While a
 * webhook has an attempt in flight that outlasted `detachAfterMs`, its next jobs detach at
 * once, and past `maxInFlightPerSlowWebhook` attempts in flight they are not sent at all:
 * each is recorded as a failed attempt (`busy`) and retried on the schedule, so a receiver
 * hanging on every request costs a bounded number of sockets and little memory. (Only those
 * count: were attempts detached at once to count too, one slow answer under load would keep
 * every later attempt of a busy webhook detaching, each a broker round trip, for as long as
 * its attempts overlap.)
 */
export class DeliveryWorker {
  private readonly detachAfterMs: number;
  private readonly maxDetached: number;
  private readonly guardMs: number;
  /** Attempts in flight that outlasted detachAfterMs, per webhook: its receiver is slow. */
  private readonly slowAttempts = new Map<number, number>();
  private detachedTotal = 0;
  /** `deliveryId:attempt` of the attempts this replica is making: whether each ends settled (see handle). */
  private readonly attempting = new Map<string, Promise<boolean>>();
  /** Attempts that ended without being settled: their retry was not parked, so they are to be made again. */
  private readonly unsettled = new Set<string>();
  /** Attempts in flight, per webhook. */
  private readonly inFlight = new Map<number, number>();
  private readonly maxInFlightPerSlowWebhook: number;
  private readonly health: DeliveryWorkerOptions['health'];
  private readonly laneRecorder: BatchWriter<AttemptToRecord>;
  private readonly metrics: DeliveryMetrics | undefined;
  private readonly tracing: Tracing;
  private readonly secrets: SecretBox;
  private readonly bridges: BridgeSender;
  private readonly bridgeGone: DeliveryWorkerOptions['bridgeGone'];

  constructor(
    private readonly registrations: Registrations,
    private readonly http: GuardedHttpClient,
    private readonly repository: DeliveryRepository,
    /** Attempts are written in batches (see BatchWriter): one commit for many under load. */
    private readonly recorder: BatchWriter<AttemptToRecord>,
    /** Looks up recorded progress, many deliveries in one query (see BatchWriter). */
    private readonly progress: BatchWriter<string, Map<string, DeliveryProgress>>,
    private readonly queues: DeliveryQueues,
    private readonly decisions: DeliveryDecisions,
    private readonly replies: ReplyPoster,
    private readonly logger: AppLogger,
    options: DeliveryWorkerOptions,
  ) {
    // Well above a loaded receiver's p99 (about 110 ms when this machine is saturated).
    this.detachAfterMs = options.detachAfterMs ?? 250;
    this.maxDetached = options.maxDetached ?? 4_096;
    this.maxInFlightPerSlowWebhook = options.maxInFlightPerSlowWebhook ?? 100;
    this.health = options.health;
    this.laneRecorder = options.laneRecorder ?? recorder;
    this.metrics = options.metrics;
    this.tracing = options.tracing ?? Tracing.off();
    this.secrets = options.secrets;
    this.bridges = options.bridges ?? new BridgeSender((r) => requestThroughGuard(http, r), options.secrets, { limiter: null, maxWaitMs: options.timeoutMs });
    this.bridgeGone = options.bridgeGone;
    // The attempt has ended (timed out at worst) and been recorded well before its guard returns.
    this.guardMs = Math.round(options.timeoutMs * 1.5) + 1_000;
  }

  async handle(received: DeliveryJob, lease: JobLease = { release: () => undefined }): Promise<HandlerOutcome> {
    // After a replica dies, its delivery job comes back and its event is redone: both may ask
    // this replica for the same attempt at once. One makes it (and parks its retry); the other
    // waits for its outcome. After a broker outage the other may be this very job handed out
    // again (the first copy's channel is gone, so it can no longer be settled): when the first
    // could not finish (its retry not parked: see conclude), the copy goes back to the queue
    // rather than being dropped with it. Not the first's outcome: a detached first copy answers
    // 'ack' then (its guard copy is to make the attempt again), and the guard copy may be this
    // very copy, arrived early because the retry's publish waited out the outage.
    const key = `${received.deliveryId}:${received.attempt}`;
    const making = this.attempting.get(key);
    if (making) return (await making) ? 'ack' : 'requeue';
    const outcome = this.attempt(received, lease);
    this.attempting.set(key, outcome.then(() => !this.unsettled.delete(key), () => false));
    try {
      return await outcome;
    } finally {
      this.attempting.delete(key);
    }
  }

  /** A job from the deliveries queue, or a first attempt taken straight off its event (InlineAttempts). */
  private async attempt(received: DeliveryJob, lease: JobLease): Promise<HandlerOutcome> {
    if (await this.madeElsewhere(received, lease)) return 'ack';
    const { guard, ...job } = received;
    return this.make(job, this.concurrent(job, lease));
  }

  /**
   * One attempt of an ordered delivery (see OrderedLanes): made at once, its retry not parked
   * in the broker but answered, for its lane to wait on. Its reply is posted before it
   * answers; its record is being written (`recorded`), and the lane waits for it before its
   * next attempt: a delivery is sent only once the outcome of the one before it is recorded,
   * so that a replica killed meanwhile leaves no earlier delivery to be sent again after it.
   */
  async attemptInLane(job: DeliveryJob, companions: readonly DeliveryJob[] = [], paced = false): Promise<NextAttempt> {
    return this.make(job, this.ordered(companions, paced));
  }

  /**
   * The attempt, whichever way it came: the registration looked up, the webhook gone
   * (cancelled) or disabled (a failed attempt, not sent), the request built and sent under
   * the attempt's span, what the outcome means decided, logged and counted, its retry parked
   * (`way`), its record written and its reply posted. What differs between the two entry
   * points is `way`'s.
   */
  private async make<R>(job: DeliveryJob, way: AttemptWay<R>): Promise<R> {
    const registration = await this.registrationOf(job);
    // Deliveries coalesced with this one end with it when nothing is sent.
    const all = [job, ...way.companions];
    if (!registration) {
      for (const j of all) {
        this.logger.info({ deliveryId: j.deliveryId, webhookId: j.webhookId, ...traceFields(j.traceparent) }, 'delivery cancelled: the webhook is gone');
        this.metrics?.end(j.event, 'cancelled', 'unknown');
        // Nothing is sent either way: a database outage loses the mark, not the delivery's fate.
        await this.repository.markCancelled(j).catch((err) => this.recordFailed(err, j));
      }
      return way.ended;
    }
    if (!isEnabled(registration)) {
      for (const j of all) {
        this.logger.info({ deliveryId: j.deliveryId, webhookId: j.webhookId, attempt: j.attempt, ...traceFields(j.traceparent) }, 'delivery not sent: the webhook is disabled');
        this.metrics?.end(j.event, 'failed', deliveryKindOf(registration));
        await this.record(way, disabledAttempt(j, new Date()));
      }
      return way.ended;
    }

    const startedAt = new Date();
    const withheld = way.withheld();
    const { result, secrets, trace, platform, made }: Sent = withheld
      ? { result: withheld, secrets: [], made: job }
      : isBridge(registration)
        ? await this.postToBridge(job, registration as BridgeRegistration, way)
        : await this.postEnvelope(job, registration, startedAt, way);

    const now = new Date();
    const decision = this.decisions.decide({ job: made, result, startedAt, secrets, now, platform });
    this.log(job, registration, decision);
    this.health?.observe(job.webhookId, result);
    // The platform says the bridge is gone: disabled now, not after the thresholds' days of failures.
    if (platform?.outcome === 'never') this.bridgeGone?.(job.webhookId, redactText(platform.reason, secrets));
    this.measure(job, registration, result, decision);
    if (decision.retry) {
      const instead = await way.parkRetry(decision.retry);
      if (instead !== null) return instead;
    }
    // Deliveries coalesced into the same post share its outcome, each recorded as its own attempt.
    const companions = way.companions.map((c) => this.decisions.decide({ job: c, result, startedAt, secrets, now, platform }));
    for (const [i, d] of companions.entries()) {
      this.log(way.companions[i], registration, d);
      this.measure(way.companions[i], registration, null, d);
    }
    // The head's record keeps how many of its posts were accepted (a lane rebuilt elsewhere resumes there).
    const records = [decision, ...companions].map((d, i) => this.record(way, { job: i === 0 ? made : way.companions[i - 1], record: d.record, state: d.state }));
    await way.recording(records.length === 1 ? records[0] : Promise.all(records).then(() => undefined));
    await this.reply(job, registration, decision, trace);
    return way.answer(decision, companions);
  }

  /** A webhook's attempt: the HipChat envelope, signed, POSTed under the attempt's span. */
  private async postEnvelope<R>(job: DeliveryJob, registration: WebhookRegistration, startedAt: Date, way: AttemptWay<R>): Promise<Sent> {
    const span = this.attemptSpan(job, registration);
    const request = this.buildRequest(job, registration, startedAt, traceparentOf(span));
    if ('problem' in request) {
      endWithError(span, 'unsignable');
      return { result: this.unsignable(job, request.problem), secrets: [], made: job };
    }
    const result = await way.sending(this.send(request, span));
    return { result, secrets: request.secrets, trace: withSpan(span), made: job };
  }

  /**
   * A bridge's attempt: its message (and those coalesced with it) in its platform's format,
   * the posts sent in order from the first not yet accepted, paced by the bridge's budget. What
   * its platform answered decides (`platform`); `made` carries how many posts were accepted.
   */
  private async postToBridge<R>(job: DeliveryJob, registration: BridgeRegistration, way: AttemptWay<R>): Promise<Sent> {
    const span = this.attemptSpan(job, registration);
    const sending = this.bridges.send({ registration, jobs: [job, ...way.companions], paced: way.paced });
    const result = await way.sending(sending.then((sent) => sent.result));
    const sent = await sending;
    this.endSpan(span, result);
    return { result, secrets: sent.secrets, platform: sent.platform, made: { ...job, partsDone: sent.partsDone } };
  }

  /**
   * The concurrent way (a job's message or an event in hand, WEBHOOK_CONCURRENCY at a time):
   * a slow receiver's attempts are withheld past its limit and give their slot back while
   * they wait (see the class comment), a retry waits in a delay queue, and the message is
   * settled once the attempt is recorded.
   */
  private concurrent(job: DeliveryJob, lease: JobLease): AttemptWay<HandlerOutcome> {
    let detached = false;
    return {
      ended: 'ack',
      companions: [],
      paced: false,
      recorder: this.recorder,
      withheld: () => this.withheld(job),
      sending: async (sending) => {
        const sent = await this.detachingWhileSlow(job, lease, sending);
        detached = sent.detached;
        return sent.result;
      },
      parkRetry: async (retry) => {
        try {
          await this.queues.publishRetry(retry.job, retry.delayMs, retry.tierMs);
          return null;
        } catch (err) {
          this.logger.warn({ err: (err as Error).message, deliveryId: job.deliveryId, ...traceFields(job.traceparent) }, 'could not schedule the retry; the attempt will be made again');
          // Not parked, so not recorded either: a job that comes back (this one, requeued or handed
          // out again after its channel closed, or its guard copy) is dropped once its attempt is
          // recorded, and the delivery would wait as `retrying` for a retry that nothing holds.
          // Left unrecorded, the attempt is made again. Kept: the job goes back to the queue (a
          // nack, or the broker's own redelivery when the channel is gone). Released: its guard copy.
          this.unsettled.add(`${job.deliveryId}:${job.attempt}`);
          return detached ? 'ack' : 'requeue';
        }
      },
      // The job's message (or its event) is settled once the attempt is recorded: a replica that
      // dies before leaves it to be made again, never a delivery whose log says `pending` for ever.
      // Replying needs no slot: the next job can start meanwhile.
      recording: async (recorded) => {
        await recorded;
        lease.release();
      },
      answer: () => 'ack',
    };
  }

  /** The ordered way (OrderedLanes): no slot to give back, the retry and the wait for the record are the lane's. */
  private ordered(companions: readonly DeliveryJob[], paced: boolean): AttemptWay<NextAttempt> {
    let recorded: Promise<void> | undefined;
    return {
      ended: { next: null, retryInMs: 0, companions: companions.map(() => null) },
      companions,
      paced,
      // No linger: the lane waits for this record (see DeliveryWorkerOptions.laneRecorder).
      recorder: this.laneRecorder,
      withheld: () => null,
      sending: (sending) => sending,
      parkRetry: async () => null,
      recording: (r) => {
        recorded = r;
      },
      answer: (decision, others) => ({
        next: decision.retry?.job ?? null, retryInMs: decision.retry?.delayMs ?? 0, recorded, companions: others.map((d) => d.retry?.job ?? null),
      }),
    };
  }

  /** A failed attempt without a request when the webhook's slow receiver already holds all the requests it may; else null. */
  private withheld(job: DeliveryJob): AttemptResult | null {
    const held = this.inFlight.get(job.webhookId) ?? 0;
    if (!this.isSlow(job.webhookId) || (held < this.maxInFlightPerSlowWebhook && this.detachedTotal < this.maxDetached)) return null;
    return {
      kind: 'failure', failure: 'busy', durationMs: 0,
      message: `not sent: ${held} earlier attempts to this webhook are still waiting for its receiver`,
    };
  }

  /**
   * Waits for the request, counted in flight for its webhook. A slow webhook's attempt gives
   * its slot back at once; another's once it outlasts detachAfterMs (its webhook is slow meanwhile).
   */
  private async detachingWhileSlow(job: DeliveryJob, lease: JobLease, sending: Promise<AttemptResult>): Promise<{ result: AttemptResult; detached: boolean }> {
    const slow = this.isSlow(job.webhookId);
    this.inFlight.set(job.webhookId, (this.inFlight.get(job.webhookId) ?? 0) + 1);
    const counted = sending.finally(() => {
      const left = (this.inFlight.get(job.webhookId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(job.webhookId, left);
      else this.inFlight.delete(job.webhookId);
    });
    let detached = false;
    let overdue = false;
    let detaching: Promise<void> | null = null;
    const detach = () => {
      detaching ??= this.detach(job, lease).then((done) => {
        detached = done;
      });
      return detaching;
    };
    if (slow) await detach();
    const timer = slow ? null : setTimeout(() => {
      overdue = true;
      this.slowAttempts.set(job.webhookId, (this.slowAttempts.get(job.webhookId) ?? 0) + 1);
      void detach();
    }, this.detachAfterMs);
    const result = await counted;
    if (timer) clearTimeout(timer);
    if (overdue) this.notSlow(job.webhookId);
    if (detaching) await detaching;
    if (detached) this.detachedTotal--;
    return { result, detached };
  }

  private isSlow(webhookId: number): boolean {
    return (this.slowAttempts.get(webhookId) ?? 0) > 0;
  }

  /**
   * The attempt's request, built for its registration: signed with its secret (which may not
   * open). The one step, with send, that another kind of target builds its own way.
   */
  private buildRequest(job: DeliveryJob, registration: WebhookRegistration, now: Date, traceparent: string | undefined): DeliveryRequest | { problem: string } {
    const signing = signingSecretOf(registration, this.secrets);
    if ('problem' in signing) return signing;
    return deliveryRequest({ job, registration, secret: signing.secret, now, traceparent });
  }

  /** An attempt not made: the webhook's secret cannot be opened (a failed attempt, retried on the schedule). */
  private unsignable(job: DeliveryJob, problem: string): AttemptResult {
    this.logger.warn({ deliveryId: job.deliveryId, webhookId: job.webhookId, ...traceFields(job.traceparent) }, problem);
    return { kind: 'failure', failure: 'unsignable', durationMs: 0, message: problem };
  }

  /** Writes a record through the way's writer. The attempt happened whatever the database says: an outage loses its record, not the delivery. */
  private record(way: AttemptWay<unknown>, item: AttemptToRecord): Promise<void> {
    return way.recorder.add(item).catch((err) => this.recordFailed(err, item.job));
  }

  /** Posts the reply the answer carried (or records why it could not be one). */
  private async reply(job: DeliveryJob, registration: WebhookRegistration, decision: Decision, trace?: Context): Promise<void> {
    const reply = decision.reply;
    if (reply.kind === 'notification') {
      const posted = await this.replies.post({ job, registration, notification: reply.notification, trace })
        .catch((err: Error) => ({ error: `The reply could not be posted: ${err.message}` }));
      if ('error' in posted) this.logger.info({ deliveryId: job.deliveryId, webhookId: job.webhookId, problem: posted.error, ...traceFields(job.traceparent) }, 'webhook reply not posted');
      await this.repository.recordReply(job.deliveryId, posted).catch((err) => this.recordFailed(err, job));
    } else if (reply.kind === 'invalid') {
      this.logger.info({ deliveryId: job.deliveryId, webhookId: job.webhookId, problem: reply.problem, ...traceFields(job.traceparent) }, 'invalid webhook reply');
      await this.repository.recordReply(job.deliveryId, { error: reply.problem }).catch((err) => this.recordFailed(err, job));
    }
  }

  /**
   * Whether the attempt this job asks for was already made, as recorded: a guard copy whose
   * attempt ended, a message the broker handed out again after its consumer died, or one of
   * two retry chains of a delivery (an event redone after a crash starts a second one), or a
   * first attempt's job published twice (see JobLease.mayBeCopy). Without the database the
   * attempt is made: a duplicate is better than a loss.
   */
  private async madeElsewhere(job: DeliveryJob, lease: JobLease): Promise<boolean> {
    // A first attempt's job is its only copy (the events consumer found it unattempted, see
    // unsentJobs) unless the broker handed it out before or it may have been published twice.
    if (!job.guard && !lease.redelivered && !lease.mayBeCopy && job.attempt === 1) return false;
    try {
      return attemptAlreadyMade(job, (await this.progress.add(job.deliveryId)).get(job.deliveryId));
    } catch {
      return false;
    }
  }

  /** Parks the guard copy, then gives the slot back; false when it could not (the slot is kept). */
  private async detach(job: DeliveryJob, lease: JobLease): Promise<boolean> {
    if (this.detachedTotal >= this.maxDetached) return false;
    this.detachedTotal++;
    try {
      await this.queues.publishInFlight({ ...job, guard: true }, this.guardMs);
    } catch (err) {
      this.detachedTotal--;
      this.logger.warn({ err: (err as Error).message, deliveryId: job.deliveryId, ...traceFields(job.traceparent) }, 'could not park a guard copy; keeping the slot');
      return false;
    }
    lease.release();
    return true;
  }

  private notSlow(webhookId: number): void {
    const left = (this.slowAttempts.get(webhookId) ?? 1) - 1;
    if (left > 0) this.slowAttempts.set(webhookId, left);
    else this.slowAttempts.delete(webhookId);
  }

  /**
   * The registration; a replica whose index predates the job's event reloads it first. A
   * first attempt goes to the webhook as it was when its event was caused (a webhook deleted
   * or changed since still gets it); retries go to it as it is now (deleting it cancels them).
   */
  private async registrationOf(job: DeliveryJob): Promise<WebhookRegistration | undefined> {
    if (job.attempt === 1 && job.registrationsVersion !== null) {
      await this.registrations.upTo(job.registrationsVersion);
      const then = this.registrations.at(job.webhookId, job.registrationsVersion);
      if (then) return then;
    }
    const found = this.registrations.get(job.webhookId);
    if (found) return found;
    const created = Date.parse(job.createdAt);
    await this.registrations.freshSince(Number.isNaN(created) ? Date.now() : created);
    return this.registrations.get(job.webhookId);
  }

  /**
   * The attempt's span: a child of the job's trace (the event's, or the operator's redeliver).
   * Its attributes name the webhook, never its URL's path or query (tokens live there).
   */
  private attemptSpan(job: DeliveryJob, registration: WebhookRegistration): Span {
    const method = registration.bridge?.kind === 'matrix' ? 'PUT' : 'POST';
    return this.tracing.span(method, SpanKind.CLIENT, contextOf(job.traceparent), () => ({
      'http.request.method': method,
      'server.address': hostOf(registration.url),
      'webhook.kind': deliveryKindOf(registration),
      'webhook.id': job.webhookId,
      'webhook.event': job.event,
      'webhook.delivery_id': job.deliveryId,
      'webhook.attempt': job.attempt,
    }));
  }

  private async send(request: DeliveryRequest, span: Span): Promise<AttemptResult> {
    const result = await requestThroughGuard(this.http, { method: 'POST', ...request });
    this.endSpan(span, result);
    return result;
  }

  private endSpan(span: Span, result: AttemptResult): void {
    if (result.kind === 'response') {
      span.setAttribute('http.response.status_code', result.status);
      if (result.status >= 400) endWithError(span, `HTTP ${result.status}`);
      else span.end();
    } else {
      // The failure's kind only: its message may quote the URL.
      endWithError(span, result.failure);
    }
  }

  private log(job: DeliveryJob, registration: WebhookRegistration, d: Decision): void {
    const delivered = d.state.status === 'delivered';
    // Not even built for a success at info: redacting the URL is a scan per attempt.
    if (delivered && !this.logger.isLevelEnabled('debug')) return;
    // The URL without its query, fragment or credentials, as `cli webhook list` and the
    // spans show it: receivers and add-on frameworks put their tokens there (`?key=`), under
    // names no list of secret names knows. The request itself keeps them.
    const line = {
      ...traceFields(job.traceparent),
      deliveryId: job.deliveryId,
      webhookId: job.webhookId,
      event: job.event,
      attempt: job.attempt,
      // A bridge's URL is itself its credential (its path's token): only its origin and first segment.
      url: isBridge(registration) ? maskedBridgeUrl(registration.url) : bareUrl(registration.url),
      kind: deliveryKindOf(registration),
      status: d.record.status,
      error: d.record.error,
      durationMs: d.record.durationMs,
      outcome: d.state.status,
      retryInMs: d.retry?.delayMs,
    };
    if (delivered) this.logger.debug(line, 'webhook delivered');
    else this.logger.info(line, d.state.status === 'retrying' ? 'webhook delivery failed; retrying' : 'webhook delivery failed');
  }

  /** The attempt, and the delivery if it ended with it (a retry is counted when it ends). */
  private measure(job: DeliveryJob, registration: WebhookRegistration, result: AttemptResult | null, decision: Decision): void {
    const kind = deliveryKindOf(registration);
    if (result) this.metrics?.attempt(job.event, result, kind);
    if (decision.state.status !== 'retrying') this.metrics?.end(job.event, decision.state.status, kind);
  }

  private recordFailed(err: unknown, job: DeliveryJob): void {
    this.logger.warn({ err: (err as Error)?.message, deliveryId: job.deliveryId, ...traceFields(job.traceparent) }, 'could not record the delivery');
  }
}

/** The host of a webhook's URL (a span attribute: no path, no query, no credentials). */
function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return 'unknown';
  }
}
