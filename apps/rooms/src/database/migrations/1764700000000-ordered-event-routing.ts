import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which events the ordered deliveries need (`outbox.ordered`): a room event of a room with
 * an enabled ordered webhook (its own, or a group-wide one), decided in the transaction that
 * writes the event, in the same snapshot as its registrations' version, so that an event
 * caused after an ordered webhook's registration answered is always among them. The relay
 * sends those to the dispatchers' ordered queue as well; no other event costs the broker a
 * second copy. The partial index makes the check a probe of the (few) ordered webhooks.
 */
export class OrderedEventRouting1764700000000 implements MigrationInterface {
  name = 'OrderedEventRouting1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox ADD COLUMN ordered boolean NOT NULL DEFAULT false');
    await q.query(`CREATE INDEX webhooks_ordered_idx ON webhooks (room_id) WHERE delivery = 'ordered' AND enabled`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS webhooks_ordered_idx');
    await q.query('ALTER TABLE outbox DROP COLUMN IF EXISTS ordered');
  }
}
