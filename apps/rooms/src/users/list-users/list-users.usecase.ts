import { Inject, Injectable } from '@nestjs/common';
import { ListUsersV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { PresentationContext, toUserView } from '../../shared/presentation';
import { UserRepository } from '../user.repository';
import { PRESENTATION } from '../../shared/infrastructure.module';

@Injectable()
export class ListUsers {
  constructor(
    private readonly db: DataSource,
    private readonly users: UserRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  async execute(cmd: RequestOf<typeof ListUsersV1>): Promise<ReplyOf<typeof ListUsersV1>> {
    const rows = await this.users.list(this.db.manager, cmd.includeDeleted, { includeGuests: cmd.includeGuests, offset: cmd.offset, limit: cmd.limit });
    return { users: rows.map((u) => toUserView(u, this.ctx)) };
  }
}
