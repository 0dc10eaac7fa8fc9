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

/** SQL of rooms and their members. */
@Injectable()
export class RoomRepository {
  /**
   * The room a reference names, or not_found. `share` lets messages to one room commit
   * concurrently while a change of the room (which takes `update`) waits for them, so an
   * event never carries a room version older than the messages before it.
   */
  async findByRef(m: EntityManager, ref: RoomRef, lock: RoomLock = 'none'): Promise<RoomEntity> {
    const qb = m.getRepository(RoomEntity).createQueryBuilder('r');
    if (lock === 'share') qb.setLock('pessimistic_read');
    if (lock === 'update') qb.setLock('pessimistic_write');
    const room = 'id' in ref
      ? await qb.where('r.id = :id', { id: ref.id }).getOne()
      : await qb.where('lower(r.name) = lower(:name)', { name: ref.name }).getOne();
    if (!room) throw commandFailure('not_found', 'room_not_found', 'room', { ref: describeRef(ref) });
    return room;
  }

  /** A room's last activity: its newest message (an index lookup, no column to update). */
  async lastActive(m: EntityManager, roomId: number): Promise<Date | null> {
    const rows: Array<{ at: Date | null }> = await m.query('SELECT max(created_at) AS at FROM messages WHERE room_id = $1', [roomId]);
    return rows[0]?.at ?? null;
  }

  async listWithActivity(m: EntityManager): Promise<RoomWithActivity[]> {
    const { entities, raw } = await m.getRepository(RoomEntity).createQueryBuilder('r')
      .addSelect('(SELECT max(created_at) FROM messages WHERE room_id = r.id)', 'last_active')
      .orderBy('r.id', 'ASC')
      .getRawAndEntities<{ last_active: Date | null }>();
    return entities.map((room, i) => ({ room, lastActive: raw[i]?.last_active ?? null }));
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
