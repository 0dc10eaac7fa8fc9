import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { UserEntity } from '../../database/entities';

/**
 * Who is in a room now (presence), apart from who may enter a private room (members).
 * Enter and exit answer whether anything changed, so that entering twice is one entry and
 * one room_enter event, whatever drives it (the v2 API now, a live connection later).
 */
@Injectable()
export class ParticipantRepository {
  /** True when the user was not in the room before. */
  async enter(m: EntityManager, roomId: number, userId: number): Promise<boolean> {
    const rows: unknown[] = await m.query(
      'INSERT INTO room_participants (room_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING user_id', [roomId, userId]);
    return rows.length > 0;
  }

  /** True when the user was in the room. */
  async exit(m: EntityManager, roomId: number, userId: number): Promise<boolean> {
    const rows = await m.query('DELETE FROM room_participants WHERE room_id = $1 AND user_id = $2 RETURNING user_id', [roomId, userId]);
    return (Array.isArray(rows[0]) ? rows[0] : rows).length > 0;
  }

  /** Takes the user out of every room; answers the rooms they were in. */
  async exitEverywhere(m: EntityManager, userId: number): Promise<number[]> {
    const result = await m.query('DELETE FROM room_participants WHERE user_id = $1 RETURNING room_id', [userId]);
    const rows: Array<{ room_id: number }> = Array.isArray(result[0]) ? result[0] : result;
    return rows.map((r) => r.room_id).sort((a, b) => a - b);
  }

  /**
   * Empties the room; answers who was in it (by user id): the rows this statement removed,
   * so a user whose exit another transaction made meanwhile is not counted twice.
   */
  async exitAll(m: EntityManager, roomId: number): Promise<UserEntity[]> {
    const result = await m.query('DELETE FROM room_participants WHERE room_id = $1 RETURNING user_id', [roomId]);
    const rows: Array<{ user_id: number }> = Array.isArray(result[0]) ? result[0] : result;
    if (rows.length === 0) return [];
    return m.getRepository(UserEntity).find({ where: { id: In(rows.map((r) => r.user_id)) }, order: { id: 'ASC' } });
  }

  /** Who is in the room, in the order they entered. */
  async list(m: EntityManager, roomId: number, offset = 0, limit = 1000): Promise<number[]> {
    const rows: Array<{ user_id: number }> = await m.query(
      'SELECT user_id FROM room_participants WHERE room_id = $1 ORDER BY entered_at, user_id OFFSET $2 LIMIT $3', [roomId, offset, limit]);
    return rows.map((r) => r.user_id);
  }

  /** A page of the users in the room, in the order they entered. */
  listUsers(m: EntityManager, roomId: number, offset: number, limit: number): Promise<UserEntity[]> {
    return m.getRepository(UserEntity).createQueryBuilder('u')
      .innerJoin('room_participants', 'rp', 'rp.user_id = u.id')
      .where('rp.room_id = :roomId', { roomId })
      .orderBy('rp.entered_at', 'ASC').addOrderBy('u.id', 'ASC')
      .offset(offset).limit(limit)
      .getMany();
  }
}
