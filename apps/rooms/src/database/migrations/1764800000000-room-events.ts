import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The log of recently published room events, for live connections that resume from
 * Last-Event-ID (`rooms.room-events.v1`): written by the outbox relay in the statement that
 * deletes what it published (no round trip of its own), pruned by the relay once its rows
 * are older than LIVE_EVENTS_RETENTION. No foreign key to rooms: a deleted room's last
 * events (room_deleted) stay until they age out. The BRIN index serves the prune: rows are
 * written in published_at order, so it stays a few pages and costs the insert next to nothing.
 */
export class RoomEvents1764800000000 implements MigrationInterface {
  name = 'RoomEvents1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE room_events (
      room_id      integer     NOT NULL,
      seq          bigint      NOT NULL,
      routing_key  text        NOT NULL,
      envelope     jsonb       NOT NULL,
      published_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (room_id, seq)
    )`);
    await q.query('CREATE INDEX room_events_published_at_idx ON room_events USING brin (published_at)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS room_events');
  }
}
