import type { DataSource } from 'typeorm';
import type { AuditRepository } from '../../audit/audit.repository';
import type { WebhookRepository } from '../../webhooks/webhook.repository';
import type { UserHoldingsRepository } from '../user-holdings.repository';
import type { UserRepository } from '../user.repository';
import { aUser } from '../fake-tx.spec-support';
import { GetUserHoldings } from './get-user-holdings.usecase';

function make(user = aUser({ isGroupAdmin: true }), actorIsAdmin = false) {
  const manager = {};
  const creator = { id: 7, isDeleted: false, isGroupAdmin: user.isGroupAdmin, isMember: false, isOwner: false };
  const holdings = { countsOf: jest.fn(async () => ({ roomsOwned: 1, privateRooms: 2, privateRoomsNotTheirs: 3, apiTokens: 4, sessions: 5 })) };
  const webhooks = {
    creatorStandings: jest.fn(async () => [
      { webhookId: 1, roomId: 10, room: { privacy: 'private' }, creator, webhook: { name: null, url: 'https://x', bridgeKind: null } },
      { webhookId: 2, roomId: 11, room: { privacy: 'public' }, creator, webhook: { name: null, url: 'https://x', bridgeKind: 'slack' } },
    ]),
  };
  const audit = { mayRead: jest.fn(async () => actorIsAdmin) };
  const useCase = new GetUserHoldings({ manager } as unknown as DataSource, { findByRef: jest.fn(async () => user) } as unknown as UserRepository,
    holdings as unknown as UserHoldingsRepository, webhooks as unknown as WebhookRepository, audit as unknown as AuditRepository);
  return { useCase, webhooks, manager };
}

describe('GetUserHoldings', () => {
  it('counts for the user themself, webhooks by the lost-access rule, read without locks', async () => {
    const { useCase, webhooks, manager } = make();
    const { holdings } = await useCase.execute({ actor: { label: 'Grace', userId: 7 }, user: { id: 7 } });
    expect(holdings).toMatchObject({
      userId: 7, isGroupAdmin: true, roomsOwned: 1, privateRooms: 2, apiTokens: 4, sessions: 5, webhooks: 1, bridges: 1,
      ifDemoted: { privateRooms: 3, webhooks: 1, bridges: 0 },
    });
    expect(holdings.onDelete).toContain('Their 4 API tokens stop working.');
    expect(holdings.onDemote).toContain('They no longer see 3 private rooms they are not a member of.');
    expect(webhooks.creatorStandings).toHaveBeenCalledWith(manager, { userId: 7 }, { lock: false });
  });

  it('says a demotion takes nothing from a user who is not a group admin', async () => {
    const { useCase } = make(aUser(), true);
    const { holdings } = await useCase.execute({ actor: { label: 'Ada', userId: 1 }, user: { id: 7 } });
    expect(holdings.ifDemoted).toEqual({ privateRooms: 0, webhooks: 0, bridges: 0 });
    expect(holdings.onDemote).toEqual(['They are not a group admin: there is nothing to demote.']);
  });

  it('refuses anyone else who is not a group admin', async () => {
    const { useCase } = make(aUser(), false);
    await expect(useCase.execute({ actor: { label: 'Bob', userId: 8 }, user: { id: 7 } })).rejects.toMatchObject({ error: { code: 'forbidden', field: 'user' } });
  });
});
