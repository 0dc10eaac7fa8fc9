import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events of one room leave in commit order, numbered (see OutboxRelay):
 * - `outbox.room_id`: the room whose sequence an event takes (null: no room).
 * - `room_sequences`: each room's last published sequence, written only by the relay, in
 *   the statement that deletes what it published (never on the request path).
 * - `messages.position`: the outbox id of the event that told of the message, so that
 *   history lists a room's messages in the order their events were published. Taken from
 *   the outbox's id sequence; existing messages are numbered in their old history order
 *   (created_at, id), below every new event.
 */
export class RoomOrder1764600000000 implements MigrationInterface {
  name = 'RoomOrder1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE outbox ADD COLUMN room_id integer');
    // Rows written by the previous version and not yet published (v1 envelopes of room events).
    await q.query(`UPDATE outbox SET room_id = (envelope #>> '{payload,room,id}')::int
      WHERE routing_key LIKE 'room.%' AND envelope #>> '{payload,room,id}' ~ '^[0-9]+$'`);
    await q.query(`CREATE TABLE room_sequences (
      room_id  integer PRIMARY KEY,
      last_seq bigint  NOT NULL
    )`);
    await q.query('ALTER TABLE messages ADD COLUMN position bigint');
    await q.query(`UPDATE messages m SET position = o.position
      FROM (SELECT id, nextval('outbox_id_seq') AS position FROM (SELECT id FROM messages ORDER BY created_at, id) ordered) o
      WHERE m.id = o.id`);
    await q.query(`ALTER TABLE messages ALTER COLUMN position SET DEFAULT nextval('outbox_id_seq'), ALTER COLUMN position SET NOT NULL`);
    await q.query('CREATE INDEX messages_room_position_idx ON messages (room_id, position DESC)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS messages_room_position_idx');
    await q.query('ALTER TABLE messages DROP COLUMN IF EXISTS position');
    await q.query('DROP TABLE IF EXISTS room_sequences');
    await q.query('ALTER TABLE outbox DROP COLUMN IF EXISTS room_id');
  }
}
