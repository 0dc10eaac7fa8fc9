import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { commandFailure, DeleteUserV1, ReplyOf, RequestOf, UndeleteUserV1, UserDeletedV1, UserUndeletedV1 } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { newVersion, PRESENTATION, PresentationContext, toUserObject } from '../../shared/presentation';
import { UserRepository } from '../user.repository';

/** Deleting keeps the user (messages still name them); undeleting brings them back. */
@Injectable()
export class DeleteUser {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly users: UserRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  execute(cmd: RequestOf<typeof DeleteUserV1>, meta: CommandMeta): Promise<ReplyOf<typeof DeleteUserV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const user = await this.users.findByRef(m, cmd.user, { live: true, lock: true });
      user.isDeleted = true;
      user.version = newVersion();
      await this.users.setDeleted(m, user, true);
      emit(UserDeletedV1, { user: toUserObject(user, this.ctx) });
      return {};
    });
  }

  undelete(cmd: RequestOf<typeof UndeleteUserV1>, meta: CommandMeta): Promise<ReplyOf<typeof UndeleteUserV1>> {
    return this.uow.apply(meta, async ({ manager: m, emit }) => {
      const user = await this.users.findByRef(m, cmd.user, { lock: true });
      if (!user.isDeleted) throw commandFailure('invalid', 'user_not_deleted', 'user', { id: user.id });
      user.isDeleted = false;
      user.version = newVersion();
      await this.users.setDeleted(m, user, false);
      emit(UserUndeletedV1, { user: toUserObject(user, this.ctx) });
      return {};
    });
  }
}
