import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Registrations with versions, so that a registration change is in force for every event
 * caused after its call answered, on every dispatcher replica, and an event is matched
 * against the registrations as they were when it was caused:
 * - `registrations_version`: one row, advanced once by each transaction that changes
 *   webhooks (its first change takes the row lock, so registration changes commit one at
 *   a time and their versions follow commit order). Events read it as they are written to
 *   the outbox (no lock, no round trip of their own): their stamp.
 * - `webhooks.created_version`: the version whose transaction wrote the row (inserted, or
 *   changed by a PUT).
 * - `webhooks_removed`: each row as it was before a change or a deletion (cascades from a
 *   room or an add-on installation included), with the version that ended it. A dispatcher
 *   matches an event stamped v with the rows where created_version <= v < removed_version,
 *   so an event caused before a deletion is still delivered once, and one caused after is not.
 *   Kept 7 days (older events are matched against what is registered now).
 * Both the version and the removed rows are written by triggers, so no code path that
 * changes webhooks (the API, add-ons, room deletion, a later one) can forget them.
 * webhooks_removed has webhooks' columns (LIKE): a migration that adds a column to one adds
 * it to the other.
 */
export class RegistrationsVersion1764400000000 implements MigrationInterface {
  name = 'RegistrationsVersion1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE registrations_version (
      id    boolean PRIMARY KEY DEFAULT true CHECK (id),
      value bigint  NOT NULL
    )`);
    await q.query('INSERT INTO registrations_version (value) VALUES (1)');
    // Rows registered before versions existed: in force for every stamped event.
    await q.query('ALTER TABLE webhooks ADD COLUMN created_version bigint NOT NULL DEFAULT 0');
    await q.query(`CREATE TABLE webhooks_removed (LIKE webhooks)`);
    await q.query(`ALTER TABLE webhooks_removed
      ADD COLUMN removed_version bigint NOT NULL,
      ADD COLUMN removed_at timestamptz NOT NULL DEFAULT now()`);
    await q.query('CREATE INDEX webhooks_removed_at_idx ON webhooks_removed (removed_at)');
    // The transaction's version: advanced on its first change of webhooks, then the same
    // (a transaction-local setting, undone with a rolled-back savepoint like the update).
    await q.query(`CREATE FUNCTION registrations_version_of_change() RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE v text := current_setting('chat.registrations_version', true);
      BEGIN
        IF v IS NULL OR v = '' THEN
          UPDATE registrations_version SET value = value + 1 RETURNING value::text INTO v;
          PERFORM set_config('chat.registrations_version', v, true);
        END IF;
        RETURN v::bigint;
      END $$`);
    await q.query(`CREATE FUNCTION webhooks_versioned() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE v bigint := registrations_version_of_change();
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          INSERT INTO webhooks_removed SELECT OLD.*, v, now();
          DELETE FROM webhooks_removed WHERE removed_at < now() - interval '7 days';
        END IF;
        IF TG_OP = 'DELETE' THEN
          RETURN OLD;
        END IF;
        NEW.created_version := v;
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER webhooks_versioned BEFORE INSERT OR UPDATE OR DELETE ON webhooks
      FOR EACH ROW EXECUTE FUNCTION webhooks_versioned()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER IF EXISTS webhooks_versioned ON webhooks');
    await q.query('DROP FUNCTION IF EXISTS webhooks_versioned()');
    await q.query('DROP FUNCTION IF EXISTS registrations_version_of_change()');
    await q.query('DROP TABLE IF EXISTS webhooks_removed');
    await q.query('ALTER TABLE webhooks DROP COLUMN IF EXISTS created_version');
    await q.query('DROP TABLE IF EXISTS registrations_version');
  }
}
