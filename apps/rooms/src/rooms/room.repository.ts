import { Injectable } from '@nestjs/common';
import { commandFailure, describeRef, RoomRef } from '@app/contracts';
import { EntityManager } from 'typeorm';
import { RoomEntity, RoomMemberEntity } from '../database/entities';
import { isUniqueViolation } from '../shared/db-errors';

export type RoomLock = 'none' | 'share' | 'update';

export interface RoomWithActivity {
  room: RoomEntity;
  lastActive: Date | null;
}

const COLUMNS = 'id, name, topic, privacy, owner_user_id, is_archived, guest_access_token, version, created_at';

interface RoomRow {
  id: number; name: string; topic: string; privacy: 'public' | 'private'; owner_user_id: number; is_archived: boolean;
  guest_access_token: string | null; version: string; created_at: Date; last_active?: Date | null;
}

const toEntity = (r: RoomRow): RoomEntity => Object.assign(new RoomEntity(), {
  id: r.id, name: r.name, topic: r.topic, privacy: r.privacy, ownerUserId: r.owner_user_id, isArchived: r.is_archived,
  guestAccessToken: r.guest_access_token, version: r.version, createdAt: r.created_at,
});

/** SQL of rooms and their members; plain SQL on the hot reads (a query builder per request costs). */
@Injectable()
export class RoomRepository {
  /**
   * The room a reference names, or not_found. `share` lets messages to one room commit
   * concurrently while a change of the room (which takes `update`) waits for them, so an
   * event never carries a room version older than the messages before it.
   */
  async findByRef(m: EntityManager, ref: RoomRef, lock: RoomLock = 'none'): Promise<RoomEntity> {
    const suffix = lock === 'share' ? ' FOR SHARE' : lock === 'update' ? ' FOR UPDATE' : '';
    const rows: RoomRow[] = 'id' in ref
      ? await m.query(`SELECT ${COLUMNS} FROM rooms WHERE id = $1${suffix}`, [ref.id])
      : await m.query(`SELECT ${COLUMNS} FROM rooms WHERE lower(name) = lower($1)${suffix}`, [ref.name]);
    if (rows.length === 0) throw commandFailure('not_found', 'room_not_found', 'room', { ref: describeRef(ref) });
    return toEntity(rows[0]);
  }

  /** A room's last activity: its newest message (an index lookup, no column to update). */
  async lastActive(m: EntityManager, roomId: number): Promise<Date | null> {
    const rows: Array<{ at: Date | null }> = await m.query('SELECT max(created_at) AS at FROM messages WHERE room_id = $1', [roomId]);
    return rows[0]?.at ?? null;
  }

  async listWithActivity(m: EntityManager): Promise<RoomWithActivity[]> {
    const rows: RoomRow[] = await m.query(
      `SELECT ${COLUMNS}, (SELECT max(created_at) FROM messages WHERE room_id = r.id) AS last_active FROM rooms r ORDER BY id`);
    return rows.map((r) => ({ room: toEntity(r), lastActive: r.last_active ?? null }));
  }

  /** Inserts a room, or conflict when the name is taken (case-insensitively). */
  async insert(m: EntityManager, room: RoomEntity): Promise<RoomEntity> {
    try {
      await m.getRepository(RoomEntity).insert(room);
    } catch (err) {
      if (isUniqueViolation(err)) throw commandFailure('conflict', 'room_name_taken', 'name', { name: room.name });
      throw err;
    }
    return m.getRepository(RoomEntity).findOneByOrFail({ id: room.id });
  }

  async update(m: EntityManager, id: number, changes: Partial<Pick<RoomEntity, 'topic' | 'version' | 'isArchived' | 'name' | 'privacy'>>): Promise<void> {
    await m.getRepository(RoomEntity).update({ id }, changes);
  }

  async delete(m: EntityManager, id: number): Promise<void> {
    await m.getRepository(RoomEntity).delete({ id });
  }

  async addMember(m: EntityManager, roomId: number, userId: number): Promise<void> {
    await m.query('INSERT INTO room_members (room_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [roomId, userId]);
  }

  async memberIds(m: EntityManager, roomId: number): Promise<number[]> {
    const rows = await m.getRepository(RoomMemberEntity).find({ where: { roomId }, order: { userId: 'ASC' } });
    return rows.map((r) => r.userId);
  }
}
