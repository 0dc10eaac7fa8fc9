import { Injectable } from '@nestjs/common';
import { commandFailure, GetUserHoldingsV1, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { AuditRepository } from '../../audit/audit.repository';
import { WebhookRepository } from '../../webhooks/webhook.repository';
import { UserHoldingsRepository } from '../user-holdings.repository';
import { UserRepository } from '../user.repository';
import { holdingsEffects, webhooksLostBy } from './holdings-rules';

/**
 * What a live user holds that a deletion or a demotion would take (see GetUserHoldingsV1):
 * theirs to read, a group admin's, or the operator's. Read without locks: a count for a
 * confirmation, not a promise (the change itself judges again in its transaction).
 */
@Injectable()
export class GetUserHoldings {
  constructor(
    private readonly db: DataSource,
    private readonly users: UserRepository,
    private readonly holdings: UserHoldingsRepository,
    private readonly webhooks: WebhookRepository,
    private readonly audit: AuditRepository,
  ) {}

  async execute(cmd: RequestOf<typeof GetUserHoldingsV1>): Promise<ReplyOf<typeof GetUserHoldingsV1>> {
    const m = this.db.manager;
    const user = await this.users.findByRef(m, cmd.user, { live: true });
    if (cmd.actor.userId !== user.id && !(await this.audit.mayRead(m, cmd.actor))) {
      throw commandFailure('forbidden', 'not_allowed', 'user', { message: 'Only group admins, and the user themself, may read what a user holds.' });
    }
    const [counts, standings] = await Promise.all([
      this.holdings.countsOf(m, user.id), this.webhooks.creatorStandings(m, { userId: user.id }, { lock: false }),
    ]);
    const lost = webhooksLostBy(standings, 'delete');
    const demoted = user.isGroupAdmin ? webhooksLostBy(standings, 'demote') : { webhooks: 0, bridges: 0 };
    const held = {
      isGroupAdmin: user.isGroupAdmin,
      roomsOwned: counts.roomsOwned,
      privateRooms: counts.privateRooms,
      apiTokens: counts.apiTokens,
      sessions: counts.sessions,
      webhooks: lost.webhooks,
      bridges: lost.bridges,
      ifDemoted: { privateRooms: user.isGroupAdmin ? counts.privateRoomsNotTheirs : 0, ...demoted },
    };
    return { holdings: { userId: user.id, ...held, ...holdingsEffects(held) } };
  }
}
