import { Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import { RecordSignInThrottledV1, ReplyOf, RequestOf } from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { AuditRepository } from '../audit.repository';

/** A gateway refused a sign-in for too many failed guesses: one line, naming the account tried and the address. */
@Injectable()
export class RecordSignInThrottled {
  constructor(private readonly uow: UnitOfWork, private readonly audit: AuditRepository) {}

  execute(cmd: RequestOf<typeof RecordSignInThrottledV1>, meta: CommandMeta): Promise<ReplyOf<typeof RecordSignInThrottledV1>> {
    return this.uow.apply(meta, async ({ manager: m }) => {
      const userId = await this.audit.userIdByEmail(m, cmd.email);
      // The service refused: no actor of a request (the guesses' address is the line's).
      await this.audit.append(m, undefined, {
        action: 'session.sign_in_throttled', target: { type: 'user', id: userId, name: cmd.email }, details: { scope: cmd.scope }, address: cmd.address,
      });
      return {};
    });
  }
}
