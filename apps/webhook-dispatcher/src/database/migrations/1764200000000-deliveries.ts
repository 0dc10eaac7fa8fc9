import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dispatcher's own records: one row per delivery (an event to one registration), with
 * the exact body it POSTs (failed deliveries are kept for a later replay), and one row per
 * attempt. No foreign key to `webhooks`: the rooms service owns that table, and a delivery's
 * record outlives its registration.
 */
export class Deliveries1764200000000 implements MigrationInterface {
  name = 'Deliveries1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id               uuid         PRIMARY KEY,
        webhook_id       integer      NOT NULL,
        event            varchar(32)  NOT NULL,
        event_id         varchar(100) NOT NULL,
        room_id          integer,
        status           varchar(16)  NOT NULL DEFAULT 'pending'
                         CHECK (status IN ('pending', 'retrying', 'delivered', 'failed', 'cancelled')),
        attempts         integer      NOT NULL DEFAULT 0,
        last_status      integer,
        last_error       text,
        next_attempt_at  timestamptz,
        -- A reply that could not be posted: invalid, or refused by the rooms service.
        reply_error      text,
        reply_message_id varchar(100),
        envelope         text         NOT NULL,
        created_at       timestamptz  NOT NULL DEFAULT now(),
        updated_at       timestamptz  NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX webhook_deliveries_webhook_idx ON webhook_deliveries (webhook_id, created_at)');
    await q.query(`CREATE INDEX webhook_deliveries_failed_idx ON webhook_deliveries (created_at) WHERE status = 'failed'`);
    await q.query(`
      CREATE TABLE webhook_attempts (
        delivery_id      uuid        NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
        attempt          integer     NOT NULL,
        started_at       timestamptz NOT NULL,
        duration_ms      integer     NOT NULL,
        status           integer,
        error            text,
        response_excerpt text,
        PRIMARY KEY (delivery_id, attempt)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS webhook_attempts');
    await q.query('DROP TABLE IF EXISTS webhook_deliveries');
  }
}
