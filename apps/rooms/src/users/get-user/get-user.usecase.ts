import { Inject, Injectable } from '@nestjs/common';
import { GetUserV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { PresentationContext, toUserView } from '../../shared/presentation';
import { UserRepository } from '../user.repository';
import { PRESENTATION } from '../../shared/infrastructure.module';

/** A live user (deleted users are not found). */
@Injectable()
export class GetUser {
  constructor(
    private readonly db: DataSource,
    private readonly users: UserRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  async execute(cmd: RequestOf<typeof GetUserV1>): Promise<ReplyOf<typeof GetUserV1>> {
    return { user: toUserView(await this.users.findByRef(this.db.manager, cmd.user, { live: true }), this.ctx) };
  }
}
