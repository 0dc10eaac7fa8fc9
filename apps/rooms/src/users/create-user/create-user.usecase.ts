import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { CreateUserV1, ReplyOf, RequestOf, UserCreatedV1 } from '@app/contracts';
import { UserEntity } from '../../database/entities';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { defaultMentionName, newVersion, PresentationContext, toUserObject, toUserView } from '../../shared/presentation';
import { generatePassword, hashPassword } from '../passwords';
import { UserRepository } from '../user.repository';
import { PRESENTATION } from '../../shared/infrastructure.module';
import { AuditRepository } from '../../audit/audit.repository';
import { userSubject } from '../../audit/audit-line';

/** The password, generated when absent, is answered once and never stored in clear. */
@Injectable()
export class CreateUser {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
    private readonly audit: AuditRepository,
  ) {}

  async execute(cmd: RequestOf<typeof CreateUserV1>, meta: CommandMeta): Promise<ReplyOf<typeof CreateUserV1>> {
    const password = cmd.password ?? generatePassword();
    const passwordHash = await hashPassword(password);
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const user = await this.users.save(m, m.getRepository(UserEntity).create({
        name: cmd.name,
        mentionName: cmd.mentionName ?? await this.users.freeMentionName(m, defaultMentionName(cmd.name)),
        email: cmd.email,
        title: cmd.title ?? '',
        passwordHash,
        isGroupAdmin: cmd.isGroupAdmin ?? false,
        timezone: cmd.timezone ?? 'UTC',
        status: 'offline',
        statusMessage: '',
        isDeleted: false,
        version: newVersion(),
        lastActiveAt: null,
      }), 'insert');
      // A new person is access given: the log says who added them.
      await this.audit.append(m, cmd.actor, { action: 'user.created', target: userSubject(user), details: { isGroupAdmin: user.isGroupAdmin } });
      emit(UserCreatedV1, { user: toUserObject(user, this.ctx) });
      return { user: toUserView(user, this.ctx), password };
    }, {
      // A redelivered create answers without the password: a secret is never kept at rest.
      storedReply: (reply) => ({ ...reply, password: '' }),
    });
  }
}
