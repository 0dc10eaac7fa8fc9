import { Injectable } from '@nestjs/common';
import { commandFailure, describeRef, RoomRef } from '@app/contracts';
import { EntityManager } from 'typeorm';
import { RoomEntity, RoomMemberEntity } from '../database/entities';
import { isUniqueViolation } from '../shared/db-errors';

export type RoomLock = 'none' | 'share' | 'update';

export type RoomAttribute = 'topic' | 'version' | 'isArchived' | 'name' | 'privacy' | 'ownerUserId' | 'guestAccessToken';

export interface RoomListQuery {
  includePrivate: boolean;
  includeArchived: boolean;
  viewerId: number | null;
  /** A token confined to one room (room and room-wide add-on tokens) lists that room only. */
  onlyRoomId: number | null;
  offset: number;
  limit: number;
}

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

  /**
   * A page of rooms by id, filtered in SQL. `viewerId`: a user who sees only the private
   * rooms they are a member of (unless a group admin); null sees every private room.
   */
  async listPage(m: EntityManager, q: RoomListQuery): Promise<RoomWithActivity[]> {
    const rows: RoomRow[] = await m.query(
      `SELECT ${COLUMNS}, (SELECT max(created_at) FROM messages WHERE room_id = r.id) AS last_active FROM rooms r
        WHERE ($1::boolean OR r.privacy = 'public')
          AND ($2::boolean OR NOT r.is_archived)
          AND (r.privacy = 'public' OR $3::int IS NULL
               OR EXISTS (SELECT 1 FROM users u WHERE u.id = $3::int AND u.is_group_admin)
               OR EXISTS (SELECT 1 FROM room_members rm WHERE rm.room_id = r.id AND rm.user_id = $3::int))
          AND ($6::int IS NULL OR r.id = $6::int)
        ORDER BY r.id OFFSET $4 LIMIT $5`,
      [q.includePrivate, q.includeArchived, q.viewerId, q.offset, q.limit, q.onlyRoomId]);
    return rows.map((r) => ({ room: toEntity(r), lastActive: r.last_active ?? null }));
  }

  /** Whether a user may see a private room: a member, or a group admin. */
  async mayView(m: EntityManager, room: RoomEntity, userId: number): Promise<boolean> {
    if (room.privacy === 'public') return true;
    const rows: unknown[] = await m.query(
      `SELECT 1 WHERE EXISTS (SELECT 1 FROM users WHERE id = $2 AND is_group_admin)
         OR EXISTS (SELECT 1 FROM room_members WHERE room_id = $1 AND user_id = $2)`, [room.id, userId]);
    return rows.length > 0;
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

  /** Saves changed attributes; conflict when a new name is taken (case-insensitively). */
  async update(m: EntityManager, id: number, changes: Partial<Pick<RoomEntity, RoomAttribute>>): Promise<void> {
    try {
      await m.getRepository(RoomEntity).update({ id }, changes);
    } catch (err) {
      if (isUniqueViolation(err, 'rooms_name_uq')) throw commandFailure('conflict', 'room_name_taken', 'name', { name: changes.name ?? '' });
      throw err;
    }
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
