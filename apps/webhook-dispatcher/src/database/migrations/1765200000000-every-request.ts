import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An attempt row per request made, not per attempt number. After a replica dies, the same
 * attempt can be made twice (the dead replica's request, whose outcome it never recorded,
 * and the survivor's; or a redelivered job's and its redone event's at once): the receiver
 * saw two requests, and the log is to show both. Keyed by when each started, so writing the
 * same record again (the same request) still adds nothing.
 */
export class EveryRequest1765200000000 implements MigrationInterface {
  name = 'EveryRequest1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_pkey, ADD PRIMARY KEY (delivery_id, attempt, started_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    // The earliest request of each attempt number stays.
    await q.query(`DELETE FROM webhook_attempts a USING webhook_attempts b
                    WHERE a.delivery_id = b.delivery_id AND a.attempt = b.attempt AND a.started_at > b.started_at`);
    await q.query('ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_pkey, ADD PRIMARY KEY (delivery_id, attempt)');
  }
}
