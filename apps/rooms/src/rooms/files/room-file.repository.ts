import { Injectable } from '@nestjs/common';
import { preparedQuery } from '@app/common';
import { EntityManager } from 'typeorm';

/** SQL of `room_files`: which room each stored file belongs to, and the files of deleted rooms. */
@Injectable()
export class RoomFileRepository {
  /** Records the storage keys of a file shared in a room (the file's and its thumbnail's). */
  async record(m: EntityManager, roomId: number, keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await m.query(
      'INSERT INTO room_files (key, room_id) SELECT unnest($1::text[]), $2 ON CONFLICT (key) DO NOTHING',
      [keys, roomId],
    );
  }

  /**
   * The room a file was shared in and when its signed file links were last revoked (null:
   * never), or null: no such file, or its room was deleted. In one statement: every file
   * request asks.
   */
  async roomOf(m: EntityManager, key: string): Promise<{ roomId: number; fileLinksRevokedAt: Date | null } | null> {
    const rows: Array<{ room_id: number; file_links_revoked_at: Date | null }> = await preparedQuery(m,
      `SELECT f.room_id, r.file_links_revoked_at FROM room_files f JOIN rooms r ON r.id = f.room_id
        WHERE f.key = $1 AND f.removed_at IS NULL`, [key]);
    return rows[0] ? { roomId: rows[0].room_id, fileLinksRevokedAt: rows[0].file_links_revoked_at } : null;
  }

  /** In a room's deletion: its files are to be removed from the storage (removedKeys lists them until forgotten). */
  async markRemovedOfRoom(m: EntityManager, roomId: number): Promise<void> {
    await m.query('UPDATE room_files SET removed_at = now() WHERE room_id = $1 AND removed_at IS NULL', [roomId]);
  }

  /** Keys of deleted rooms' files not yet removed from the storage, oldest removals first. */
  async removedKeys(m: EntityManager, limit: number): Promise<string[]> {
    const rows: Array<{ key: string }> = await m.query(
      'SELECT key FROM room_files WHERE removed_at IS NOT NULL ORDER BY removed_at, key LIMIT $1', [limit]);
    return rows.map((r) => r.key);
  }

  /** Forgets removed files (only those: a key still in use is kept). */
  async forgetRemoved(m: EntityManager, keys: string[]): Promise<number> {
    if (keys.length === 0) return 0;
    const rows: unknown[] = await m.query('DELETE FROM room_files WHERE key = ANY($1::text[]) AND removed_at IS NOT NULL RETURNING key', [keys]);
    return rows.length;
  }
}
