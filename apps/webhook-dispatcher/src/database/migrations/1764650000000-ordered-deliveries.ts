import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ordered deliveries (webhooks registered with `"delivery": "ordered"`): each such delivery's
 * place in its lane (`lane_position`, increasing in the order its event reached the
 * dispatcher; null for every other delivery), and a partial index of the ones not yet
 * ended, in that order: what the replica that takes over the ordered deliveries rebuilds
 * its lanes from.
 */
export class OrderedDeliveries1764650000000 implements MigrationInterface {
  name = 'OrderedDeliveries1764650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_deliveries ADD COLUMN lane_position bigint');
    await q.query(`CREATE INDEX webhook_deliveries_lane_idx ON webhook_deliveries (lane_position)
      WHERE lane_position IS NOT NULL AND status IN ('pending', 'retrying')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS webhook_deliveries_lane_idx');
    await q.query('ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS lane_position');
  }
}
