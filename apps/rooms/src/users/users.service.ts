import { Inject, Injectable } from '@nestjs/common';
import {
  CreateUserReplyV1, CreateUserRequestV1, DeleteUserReplyV1, EventDefinition, ListUsersReplyV1, ListUsersRequestV1,
  UndeleteUserReplyV1, UpdateUserRequestV1, UserChangedV1Payload, UserCreatedV1, UserDeletedV1, UserReplyV1,
  UserRefRequestV1, UserUndeletedV1, UserUpdatedV1,
} from '@app/contracts';
import { DataSource, EntityManager } from 'typeorm';
import { UserEntity } from '../database/entities';
import { defaultMentionName, newVersion, PresentationContext, toUserObject, toV1User } from '../domain/presenters';
import { commandError, isUniqueViolation } from '../errors';
import { appendToOutbox } from '../outbox/outbox';
import { OutboxTransaction } from '../outbox/outbox-transaction';
import { PRESENTATION } from '../tokens-di';
import { generatePassword, hashPassword } from './passwords';

@Injectable()
export class UsersService {
  constructor(
    private readonly db: DataSource,
    private readonly tx: OutboxTransaction,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  /**
   * User by ID (all digits) or e-mail address. A live user wins over deleted ones that
   * share the e-mail address; `live` restricts the search to users not deleted.
   */
  async findUser(m: EntityManager, idOrEmail: string, opts: { live?: boolean; lock?: boolean } = {}): Promise<UserEntity> {
    const qb = m.getRepository(UserEntity).createQueryBuilder('u');
    if (opts.lock) qb.setLock('pessimistic_write');
    if (/^\d{1,9}$/.test(idOrEmail)) qb.where('u.id = :id', { id: Number(idOrEmail) });
    else qb.where('lower(u.email) = lower(:email)', { email: idOrEmail });
    if (opts.live) qb.andWhere('NOT u.is_deleted');
    const user = await qb.orderBy('u.is_deleted', 'ASC').addOrderBy('u.id', 'DESC').getOne();
    if (!user) throw commandError('not_found', `User not found: ${idOrEmail}`, 'user_id');
    return user;
  }

  async create(req: CreateUserRequestV1): Promise<CreateUserReplyV1> {
    const password = req.password ?? generatePassword();
    const passwordHash = await hashPassword(password);
    return this.tx.run(async (m) => {
      const user = m.getRepository(UserEntity).create({
        name: req.name,
        mentionName: req.mentionName ?? await this.freeMentionName(m, defaultMentionName(req.name)),
        email: req.email,
        title: req.title ?? '',
        passwordHash,
        isGroupAdmin: req.isGroupAdmin ?? false,
        timezone: req.timezone ?? 'UTC',
        status: 'offline',
        statusMessage: '',
        isDeleted: false,
        version: newVersion(),
        lastActiveAt: null,
      });
      await this.insertOrUpdate(m, user, 'insert');
      const saved = await m.getRepository(UserEntity).findOneByOrFail({ id: user.id });
      await this.emit(m, UserCreatedV1, saved);
      return { user: { ...toV1User(saved, this.ctx, false), password } };
    });
  }

  async update(req: UpdateUserRequestV1): Promise<UserReplyV1> {
    const passwordHash = req.password !== undefined ? await hashPassword(req.password) : undefined;
    return this.tx.run(async (m) => {
      const user = await this.findUser(m, req.userIdOrEmail, { live: true, lock: true });
      if (req.name !== undefined) user.name = req.name;
      if (req.mentionName !== undefined) user.mentionName = req.mentionName;
      if (req.email !== undefined) user.email = req.email;
      if (req.title !== undefined) user.title = req.title;
      if (req.isGroupAdmin !== undefined) user.isGroupAdmin = req.isGroupAdmin;
      if (req.timezone !== undefined) user.timezone = req.timezone;
      if (passwordHash !== undefined) user.passwordHash = passwordHash;
      user.version = newVersion();
      await this.insertOrUpdate(m, user, 'update');
      await this.emit(m, UserUpdatedV1, user);
      return { user: toV1User(user, this.ctx, false) };
    });
  }

  async delete(req: UserRefRequestV1): Promise<DeleteUserReplyV1> {
    return this.tx.run(async (m) => {
      const user = await this.findUser(m, req.userIdOrEmail, { live: true, lock: true });
      user.isDeleted = true;
      user.version = newVersion();
      await m.getRepository(UserEntity).update({ id: user.id }, { isDeleted: true, version: user.version });
      await this.emit(m, UserDeletedV1, user);
      return { deleted: true };
    });
  }

  async undelete(req: UserRefRequestV1): Promise<UndeleteUserReplyV1> {
    return this.tx.run(async (m) => {
      const user = await this.findUser(m, req.userIdOrEmail, { lock: true });
      if (!user.isDeleted) throw commandError('invalid', `user_id: user ${user.id} is not deleted`, 'user_id');
      user.isDeleted = false;
      user.version = newVersion();
      try {
        await m.getRepository(UserEntity).update({ id: user.id }, { isDeleted: false, version: user.version });
      } catch (err) {
        if (isUniqueViolation(err)) {
          throw commandError('conflict', `user_id: another user now has the e-mail address or mention name of user ${user.id}`, 'user_id');
        }
        throw err;
      }
      await this.emit(m, UserUndeletedV1, user);
      return { undeleted: true };
    });
  }

  async list(req: ListUsersRequestV1): Promise<ListUsersReplyV1> {
    const users = await this.db.getRepository(UserEntity).find({
      where: req.includeDeleted ? {} : { isDeleted: false },
      order: { id: 'ASC' },
    });
    return { users: users.map((u) => toV1User(u, this.ctx, true)) };
  }

  async show(req: UserRefRequestV1): Promise<UserReplyV1> {
    const user = await this.findUser(this.db.manager, req.userIdOrEmail, { live: true });
    return { user: toV1User(user, this.ctx, false) };
  }

  /**
   * The default mention name, made unique among live users with a number (JohnSmith,
   * JohnSmith2, ...): a user who asked for no mention name must not be refused for it.
   */
  private async freeMentionName(m: EntityManager, base: string): Promise<string> {
    const rows: Array<{ name: string }> = await m.query(
      `SELECT lower(mention_name) AS name FROM users WHERE NOT is_deleted AND lower(mention_name) LIKE lower($1) || '%'`,
      [base.replace(/[\\%_]/g, '\\$&')],
    );
    const taken = new Set(rows.map((r) => r.name));
    if (!taken.has(base.toLowerCase())) return base;
    for (let n = 2; ; n++) {
      const candidate = `${base.slice(0, 50 - String(n).length)}${n}`;
      if (!taken.has(candidate.toLowerCase())) return candidate;
    }
  }

  private async insertOrUpdate(m: EntityManager, user: UserEntity, op: 'insert' | 'update'): Promise<void> {
    try {
      if (op === 'insert') await m.getRepository(UserEntity).insert(user);
      else await m.getRepository(UserEntity).save(user);
    } catch (err) {
      if (isUniqueViolation(err, 'users_email_live_uq')) {
        throw commandError('conflict', `email: a user with e-mail address "${user.email}" already exists`, 'email');
      }
      if (isUniqueViolation(err, 'users_mention_live_uq')) {
        throw commandError('conflict', `mention_name: the mention name "${user.mentionName}" is already taken`, 'mention_name');
      }
      throw err;
    }
  }

  private async emit(m: EntityManager, def: EventDefinition<UserChangedV1Payload>, user: UserEntity): Promise<void> {
    await appendToOutbox(m, def, { user: toUserObject(user, this.ctx) });
  }
}
