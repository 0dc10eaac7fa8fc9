import { boundedLabel, DURATION_BUCKETS, sampledOnScrape } from '@app/common';
import { BRIDGE_KINDS, WEBHOOK_EVENT_NAMES, type WebhookRegistration } from '@app/contracts';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AttemptResult } from './delivery-decisions';

/** How a delivery ended. */
export type DeliveryEnd = 'delivered' | 'failed' | 'cancelled';

/**
 * What an attempt came to, as a label: `success` (a 2xx), `http_error` (any other answer),
 * or why there was no answer (`timeout`, `connection`, `refused`, `invalid_url`, `busy`).
 * Never the status or the receiver's words: the set stays fixed.
 */
export function attemptResultLabel(result: AttemptResult): string {
  if (result.kind === 'response') return result.status >= 200 && result.status < 300 ? 'success' : 'http_error';
  return result.failure;
}

/**
 * What a delivery goes to, as a label: `webhook` (a HipChat webhook) or its bridge's kind
 * (`slack`, `discord`...). `unknown` where the registration is gone.
 */
export function deliveryKindOf(registration: Pick<WebhookRegistration, 'bridge'>): string {
  return registration.bridge?.kind ?? 'webhook';
}

const KINDS: ReadonlySet<string> = new Set(['webhook', 'unknown', ...BRIDGE_KINDS]);

/** The ten event names; anything else (none today) is `_OTHER`. */
const EVENTS: ReadonlySet<string> = new Set(WEBHOOK_EVENT_NAMES);

/**
 * Counted in memory where attempts conclude (DeliveryWorker): no round trip on the delivery
 * path. `webhook_delivery_attempt_duration_seconds` (its `_count` is the attempts made, by
 * result) and `webhook_deliveries_total` (a delivery when it ends, and again when a redeliver or recover ends it anew).
 */
export class DeliveryMetrics {
  private readonly attempts: Histogram<'webhook_event' | 'result' | 'kind'>;
  private readonly ended: Counter<'webhook_event' | 'outcome' | 'kind'>;

  constructor(registry: Registry) {
    this.attempts = new Histogram({
      name: 'webhook_delivery_attempt_duration_seconds',
      help: 'Webhook delivery attempts, by event, result (success, http_error, timeout, connection, refused, invalid_url, busy) and kind (webhook, or the bridge\'s platform): the time to the receiver\'s answer or the failure.',
      labelNames: ['webhook_event', 'result', 'kind'],
      buckets: DURATION_BUCKETS,
      registers: [registry],
    });
    this.ended = new Counter({
      name: 'webhook_deliveries_total',
      help: 'Webhook deliveries that ended, by event, outcome (delivered, failed: retries exhausted, refused or webhook disabled; cancelled: webhook gone) and kind (webhook, or the bridge\'s platform).',
      labelNames: ['webhook_event', 'outcome', 'kind'],
      registers: [registry],
    });
  }

  attempt(event: string, result: AttemptResult, kind = 'webhook'): void {
    this.attempts.observe({ webhook_event: boundedLabel(event, EVENTS), result: attemptResultLabel(result), kind: boundedLabel(kind, KINDS) }, result.durationMs / 1000);
  }

  end(event: string, outcome: DeliveryEnd, kind = 'webhook'): void {
    this.ended.inc({ webhook_event: boundedLabel(event, EVENTS), outcome, kind: boundedLabel(kind, KINDS) });
  }
}

/**
 * Gauges read when Prometheus scrapes: the deliveries not yet ended (from the delivery
 * table's partial index: every replica's, so the same on each replica; take max, not sum),
 * and the webhooks disabled (from this replica's registrations index: no query).
 */
export function registerDeliveryGauges(registry: Registry, read: {
  unfinished: () => Promise<{ pending: number; retrying: number }>;
  disabledWebhooks: () => number;
}): void {
  const unfinished = sampledOnScrape(read.unfinished);
  new Gauge({
    name: 'webhook_deliveries_unfinished',
    help: 'Webhook deliveries not yet ended, by status: pending (first attempt to come) or retrying (waiting for a retry). Counted over every replica.',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const counts = await unfinished();
      if (!counts) return;
      this.set({ status: 'pending' }, counts.pending);
      this.set({ status: 'retrying' }, counts.retrying);
    },
  });
  new Gauge({
    name: 'webhooks_disabled',
    help: 'Webhooks disabled for failing (their deliveries are not sent until enabled again).',
    registers: [registry],
    collect() {
      this.set(read.disabledWebhooks());
    },
  });
}
