import type { SecretBox } from '@app/common';
import type { DeliveryJob } from '../delivery/delivery-job';
import type { AttemptResult } from '../delivery/delivery-decisions';
import { accessTokenOf, BridgeRegistration, bridgePosts, BridgeRequest, bridgeRequest, bridgeSecrets } from './bridge-delivery';
import type { BridgeMessage } from './formats/types';
import type { BridgeRateLimiter } from './bridge-rate-limit';
import { classifyPlatformAnswer, classifyPlatformFailure, PlatformAnswer } from './platform-answers';

/** What the posts of one attempt came to. */
export interface BridgeSent {
  /** The answer to the last post made (or why there was none). */
  result: AttemptResult;
  /** What that answer means (platform-answers.ts). */
  platform: PlatformAnswer;
  /** Posts of the delivery the platform has accepted, these and earlier attempts' (DeliveryJob.partsDone). */
  partsDone: number;
  /** What no record or log may show (the URL's tokens, Matrix's access token). */
  secrets: string[];
  /** The last request made, as sent (its Authorization header included: never record it as is). */
  request: BridgeRequest | null;
}

/** Makes one HTTP request through the outbound guard: the answer, or why there was none. */
export type PostRequest = (request: BridgeRequest) => Promise<AttemptResult>;

export interface BridgeSenderOptions {
  /** Shared posting budgets (Redis); null: posts are not paced (tests, a worker without bridges' limits). */
  limiter: BridgeRateLimiter | null;
  /** A wait for the budget longer than this ends the attempt as a retry (its posts so far kept). */
  maxWaitMs: number;
  now?: () => number;
}

/**
 * Sends the posts of a bridge's delivery (or of deliveries coalesced into one post) in order,
 * each within the bridge's posting budget, from the first post not yet accepted
 * (`partsDone`): a retry never shows people a part twice. Stops at the first answer that is
 * not `delivered`. Tells the limiter what the platform said about waiting (a retry's
 * `afterMs`, Discord's spent bucket), so that every replica waits as long.
 */
export class BridgeSender {
  private readonly now: () => number;

  constructor(private readonly post: PostRequest, private readonly box: SecretBox, private readonly options: BridgeSenderOptions) {
    this.now = options.now ?? Date.now;
  }

  async send(o: {
    registration: BridgeRegistration;
    /** The delivery, then the ones coalesced with it (consecutive in its lane): their BridgeMessages (envelopeBody) and the first one's partsDone. */
    jobs: ReadonlyArray<Pick<DeliveryJob, 'envelopeBody' | 'partsDone'>>;
    /** Whether the first post's budget was taken already (the ordered lane reserves before it attempts). */
    paced: boolean;
  }): Promise<BridgeSent> {
    const { registration } = o;
    const token = accessTokenOf(registration, this.box);
    if ('problem' in token) {
      return { result: { kind: 'failure', failure: 'unsignable', message: token.problem, durationMs: 0 }, platform: { outcome: 'failed', reason: token.problem }, partsDone: o.jobs[0].partsDone ?? 0, secrets: [], request: null };
    }
    const secrets = bridgeSecrets(registration.url, token.token);
    const posts = bridgePosts(registration.bridge, o.jobs.map((j) => j.envelopeBody));
    let done = Math.min(o.jobs[0].partsDone ?? 0, posts.length);
    let durationMs = 0;
    let last: { result: AttemptResult; platform: PlatformAnswer; request: BridgeRequest | null } | null = null;
    const first = done;
    for (let i = first; i < posts.length; i++) {
      // The lane took the first post's budget; every further part takes its own.
      if (i > first || !o.paced) {
        const waitMs = await this.budget(registration);
        if (waitMs > 0) {
          const message = `not sent: the bridge's posting limit allows its next post in ${waitMs} ms`;
          last = { result: { kind: 'failure', failure: 'busy', message, durationMs: 0 }, platform: { outcome: 'retry', afterMs: waitMs, reason: message }, request: null };
          break;
        }
      }
      const request = bridgeRequest(registration.url, posts[i], token.token);
      const result = await this.post(request);
      durationMs += result.durationMs;
      const platform = result.kind === 'response'
        ? classifyPlatformAnswer(registration.bridge.kind, { status: result.status, headers: result.headers, body: result.body }, new Date(this.now()))
        : classifyPlatformFailure(result.failure === 'busy' || result.failure === 'unsignable' ? 'connection' : result.failure);
      last = { result, platform, request };
      const waitMs = platform.outcome === 'delivered' ? platform.nextPostAfterMs : platform.outcome === 'retry' ? platform.afterMs : undefined;
      if (waitMs !== undefined && waitMs > 0) await this.options.limiter?.penalize(registration.id, this.now() + waitMs);
      if (platform.outcome !== 'delivered') break;
      done = i + 1;
    }
    if (!last) {
      // Every post was accepted by earlier attempts (a retry after its record was lost): nothing left to send.
      last = { result: { kind: 'response', status: 200, headers: {}, body: '', truncated: false, durationMs: 0 }, platform: { outcome: 'delivered' }, request: null };
    }
    return { result: { ...last.result, durationMs }, platform: last.platform, partsDone: done, secrets, request: last.request };
  }

  /** One message sent now, on its own (the bridge test): paced as any post of the bridge. */
  sendOne(registration: BridgeRegistration, message: BridgeMessage): Promise<BridgeSent> {
    return this.send({ registration, jobs: [{ envelopeBody: JSON.stringify(message) }], paced: false });
  }

  /**
   * Takes a post of the bridge's budget, waiting for it when the wait is short (the parts of
   * one message go out back to back); 0 once taken, else the wait that was too long.
   */
  private async budget(registration: BridgeRegistration): Promise<number> {
    const limiter = this.options.limiter;
    if (!limiter) return 0;
    for (;;) {
      const { waitMs } = await limiter.reserve(registration.id, registration.bridge.kind, registration.url);
      if (waitMs === 0) return 0;
      if (waitMs > this.options.maxWaitMs) return waitMs;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}
