import { Injectable } from '@nestjs/common';
import { HealthTally } from '@app/contracts';
import { EntityManager } from 'typeorm';

/** A webhook's health as kept, with what deciding on it needs. */
export interface KeptHealth {
  webhookId: number;
  tally: HealthTally;
  /** When it was last enabled again: failures from before do not count. */
  resetAt: number | null;
  /** Whether the webhook is enabled (read with the health). */
  enabled: boolean;
}

interface HealthRow {
  webhook_id: number; last_success_at: Date | null; last_failure_at: Date | null; failing_since: Date | null;
  consecutive_failures: number; last_error: string | null; reset_at: Date | null; enabled: boolean;
}

const ms = (d: Date | null): number | null => (d === null ? null : d.getTime());
const date = (t: number | null): Date | null => (t === null ? null : new Date(t));

/**
 * SQL of `webhook_health`: one row per webhook that has been attempted, changed by the
 * dispatchers' reports, never by a registration change (the row is not in `webhooks`).
 */
@Injectable()
export class WebhookHealthRepository {
  /**
   * The health of these webhooks, locked until the commit (reports from several dispatcher
   * replicas add up one after the other); a webhook without a row gets an empty one.
   * Webhooks that do not exist (deleted since the attempt) are left out.
   */
  async lock(m: EntityManager, webhookIds: number[]): Promise<Map<number, KeptHealth>> {
    const ids = [...new Set(webhookIds)].sort((a, b) => a - b);
    // In id order, like the lock below: two reports about the same webhooks cannot deadlock.
    // The webhooks' rows are key-share locked first: one deleted by a transaction that commits
    // while this waits is passed over (its health row would violate the foreign key), and
    // none can be deleted until this commits. Enabling locks in the same order (see reset).
    await m.query(
      `INSERT INTO webhook_health (webhook_id)
       SELECT id FROM webhooks WHERE id = ANY($1::int[]) ORDER BY id FOR KEY SHARE
       ON CONFLICT (webhook_id) DO NOTHING`, [ids]);
    const rows: HealthRow[] = await m.query(
      `SELECT h.*, w.enabled FROM webhook_health h JOIN webhooks w ON w.id = h.webhook_id
        WHERE h.webhook_id = ANY($1::int[]) ORDER BY h.webhook_id FOR UPDATE OF h`, [ids]);
    return new Map(rows.map((r) => [r.webhook_id, {
      webhookId: r.webhook_id,
      tally: {
        lastSuccessAt: ms(r.last_success_at),
        failures: r.consecutive_failures,
        firstFailureAt: ms(r.failing_since),
        lastFailureAt: ms(r.last_failure_at),
        lastError: r.last_error,
      },
      resetAt: ms(r.reset_at),
      enabled: r.enabled,
    }]));
  }

  /** Writes the tallies of rows locked by `lock`, in one statement. */
  async save(m: EntityManager, kept: KeptHealth[]): Promise<void> {
    if (kept.length === 0) return;
    await m.query(
      `UPDATE webhook_health h SET
         last_success_at = u.last_success_at, last_failure_at = u.last_failure_at, failing_since = u.failing_since,
         consecutive_failures = u.consecutive_failures, last_error = u.last_error
       FROM unnest($1::int[], $2::timestamptz[], $3::timestamptz[], $4::timestamptz[], $5::int[], $6::text[])
         AS u (webhook_id, last_success_at, last_failure_at, failing_since, consecutive_failures, last_error)
       WHERE h.webhook_id = u.webhook_id`,
      [
        kept.map((k) => k.webhookId), kept.map((k) => date(k.tally.lastSuccessAt)), kept.map((k) => date(k.tally.lastFailureAt)),
        kept.map((k) => date(k.tally.firstFailureAt)), kept.map((k) => k.tally.failures), kept.map((k) => k.tally.lastError),
      ]);
  }

  /**
   * Starts counting afresh (the webhook was enabled again): no failures, not failing; reports
   * of failures from before now add nothing. The last success and error stay, for the record.
   */
  async reset(m: EntityManager, webhookId: number): Promise<void> {
    // The webhook's row key-share locked first, as `lock` does: one deleted by a transaction
    // that commits while this waits is passed over (nothing to reset), never a foreign-key
    // violation.
    await m.query(
      `INSERT INTO webhook_health (webhook_id, reset_at)
       SELECT id, clock_timestamp() FROM webhooks WHERE id = $1 FOR KEY SHARE
       ON CONFLICT (webhook_id) DO UPDATE SET consecutive_failures = 0, failing_since = NULL, reset_at = EXCLUDED.reset_at`,
      [webhookId]);
  }
}
