import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { ReplyOf, RequestOf, SignInV1 } from '@app/contracts';
import { DataSource } from 'typeorm';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { PRESENTATION } from '../../shared/infrastructure.module';
import { PresentationContext, toUserView } from '../../shared/presentation';
import { hashPassword, verifyPassword } from '../passwords';
import { SessionRepository } from '../session.repository';
import { UserRepository } from '../user.repository';

/** Checked against when no user has the address, so that an unknown address costs one scrypt too. */
let decoy: Promise<string> | undefined;
const decoyHash = () => (decoy ??= hashPassword('no user has this password'));

/**
 * A sign-in: the password is checked (scrypt, outside any transaction), then the session is
 * stored in a transaction that holds the user FOR SHARE and checks the password hash is
 * still the one checked, so that a password change or deletion committed meanwhile is never
 * outlived by a session made with the old password.
 */
@Injectable()
export class SignIn {
  constructor(
    private readonly db: DataSource,
    private readonly uow: UnitOfWork,
    private readonly sessions: SessionRepository,
    private readonly users: UserRepository,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  async execute(cmd: RequestOf<typeof SignInV1>, meta: CommandMeta): Promise<ReplyOf<typeof SignInV1>> {
    const found = await this.sessions.credentialsOf(this.db.manager, cmd.email);
    const matches = await verifyPassword(cmd.password, found?.passwordHash ?? await decoyHash());
    if (!found || !matches) return { session: null };
    return this.uow.apply(meta, async ({ manager: m }) => {
      if (await this.sessions.lockCredentials(m, found.userId) !== found.passwordHash) return { session: null };
      await this.sessions.pruneEnded(m, found.userId);
      const session = await this.sessions.insert(m, { userId: found.userId, tokenHash: cmd.sessionHash, ttlSeconds: cmd.ttlSeconds });
      const user = await this.users.findByRef(m, { id: found.userId });
      return { session: { id: session.id, expires: session.expires.toISOString(), user: toUserView(user, this.ctx) } };
    });
  }
}
