import { Injectable } from '@nestjs/common';
import { commandFailure, describeRef, UserRef } from '@app/contracts';
import { EntityManager } from 'typeorm';
import { UserEntity } from '../database/entities';
import { isUniqueViolation } from '../shared/db-errors';

/** SQL of users. */
@Injectable()
export class UserRepository {
  /**
   * The user a reference names, or not_found (with `field`, the request part it came from).
   * A live user wins over deleted ones that share the e-mail address; `live` restricts the
   * search to users not deleted.
   */
  async findByRef(m: EntityManager, ref: UserRef, opts: { live?: boolean; lock?: boolean; lockShared?: boolean; field?: string } = {}): Promise<UserEntity> {
    const qb = m.getRepository(UserEntity).createQueryBuilder('u');
    if (opts.lock) qb.setLock('pessimistic_write');
    else if (opts.lockShared) qb.setLock('pessimistic_read');
    if ('id' in ref) qb.where('u.id = :id', { id: ref.id });
    else if ('mention' in ref) qb.where('lower(u.mention_name) = lower(:mention)', { mention: ref.mention });
    else qb.where('lower(u.email) = lower(:email)', { email: ref.email });
    if (opts.live) qb.andWhere('NOT u.is_deleted');
    const user = await qb.orderBy('u.is_deleted', 'ASC').addOrderBy('u.id', 'DESC').getOne();
    if (!user) throw commandFailure('not_found', 'user_not_found', opts.field ?? 'user', { ref: describeRef(ref) });
    return user;
  }

  /** Live users with these mention names (lower-case), by id. */
  async byMentionNames(m: EntityManager, names: string[]): Promise<UserEntity[]> {
    if (names.length === 0) return [];
    return m.getRepository(UserEntity).createQueryBuilder('u')
      .where('NOT u.is_deleted AND lower(u.mention_name) IN (:...names)', { names })
      .orderBy('u.id').getMany();
  }

  /** Users by id; `includeGuests` undefined: guests too. A page when `limit` is given. */
  list(m: EntityManager, includeDeleted: boolean, opts: { includeGuests?: boolean; offset?: number; limit?: number } = {}): Promise<UserEntity[]> {
    const where: Partial<Record<'isDeleted' | 'isGuest', boolean>> = {};
    if (!includeDeleted) where.isDeleted = false;
    if (opts.includeGuests === false) where.isGuest = false;
    return m.getRepository(UserEntity).find({ where, order: { id: 'ASC' }, skip: opts.offset, take: opts.limit });
  }

  /**
   * The default mention name, made unique among live users with a number (JohnSmith,
   * JohnSmith2, ...): a user who asked for no mention name must not be refused for it.
   */
  async freeMentionName(m: EntityManager, base: string, exceptUserId?: number): Promise<string> {
    // The user being replaced may keep the name they hold.
    const rows: Array<{ name: string }> = await m.query(
      `SELECT lower(mention_name) AS name FROM users WHERE NOT is_deleted AND lower(mention_name) LIKE lower($1) || '%' AND id <> $2`,
      [base.replace(/[\\%_]/g, '\\$&'), exceptUserId ?? 0],
    );
    const taken = new Set(rows.map((r) => r.name));
    if (!taken.has(base.toLowerCase())) return base;
    for (let n = 2; ; n++) {
      const candidate = `${base.slice(0, 50 - String(n).length)}${n}`;
      if (!taken.has(candidate.toLowerCase())) return candidate;
    }
  }

  /** Inserts or saves a user; conflict naming the field when the e-mail or mention name is taken. */
  async save(m: EntityManager, user: UserEntity, op: 'insert' | 'update'): Promise<UserEntity> {
    try {
      if (op === 'insert') await m.getRepository(UserEntity).insert(user);
      else await m.getRepository(UserEntity).save(user);
    } catch (err) {
      if (isUniqueViolation(err, 'users_email_live_uq')) throw commandFailure('conflict', 'email_taken', 'email', { email: user.email });
      if (isUniqueViolation(err, 'users_mention_live_uq')) {
        throw commandFailure('conflict', 'mention_name_taken', 'mentionName', { mentionName: user.mentionName });
      }
      throw err;
    }
    return op === 'insert' ? m.getRepository(UserEntity).findOneByOrFail({ id: user.id }) : user;
  }

  /** Marks a user deleted or not; conflict when undeleting collides with a live user. */
  /** A new password hash (the user's own choice, by an invitation). */
  async setPasswordHash(m: EntityManager, userId: number, passwordHash: string): Promise<void> {
    await m.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
  }

  async setDeleted(m: EntityManager, user: UserEntity, deleted: boolean): Promise<void> {
    try {
      await m.getRepository(UserEntity).update({ id: user.id }, { isDeleted: deleted, version: user.version });
    } catch (err) {
      if (isUniqueViolation(err)) throw commandFailure('conflict', 'user_identity_taken', 'user', { id: user.id });
      throw err;
    }
  }
}
