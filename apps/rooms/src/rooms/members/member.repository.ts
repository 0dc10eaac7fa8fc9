import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { UserEntity } from '../../database/entities';

/**
 * SQL of who may enter a private room (room_members). Adding a member and the ids of
 * members are RoomRepository's (room creation uses them); the rest lives here.
 */
@Injectable()
export class MemberRepository {
  /**
   * Whether the user is a member. `lock` holds the membership row until the commit, so that
   * a concurrent removal waits for an entry checked against it (and then exits the user).
   */
  async isMember(m: EntityManager, roomId: number, userId: number, opts: { lock?: boolean } = {}): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `SELECT 1 FROM room_members WHERE room_id = $1 AND user_id = $2${opts.lock ? ' FOR SHARE' : ''}`, [roomId, userId]);
    return rows.length > 0;
  }

  /** True when the user was a member. */
  async remove(m: EntityManager, roomId: number, userId: number): Promise<boolean> {
    const result = await m.query('DELETE FROM room_members WHERE room_id = $1 AND user_id = $2 RETURNING user_id', [roomId, userId]);
    return (Array.isArray(result[0]) ? result[0] : result).length > 0;
  }

  /** A page of the room's members who are not deleted, by user id. */
  listUsers(m: EntityManager, roomId: number, offset: number, limit: number): Promise<UserEntity[]> {
    return m.getRepository(UserEntity).createQueryBuilder('u')
      .innerJoin('room_members', 'rm', 'rm.user_id = u.id')
      .where('rm.room_id = :roomId AND NOT u.is_deleted', { roomId })
      .orderBy('u.id', 'ASC')
      .offset(offset).limit(limit)
      .getMany();
  }
}
