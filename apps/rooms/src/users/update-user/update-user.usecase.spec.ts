import { RoomAccessNarrowedV1, UserUpdatedV1 } from '@app/contracts';
import type { AuditRepository } from '../../audit/audit.repository';
import type { RoomRepository } from '../../rooms/room.repository';
import type { WebhookAccessSteps } from '../../webhooks/lost-access/webhook-access-steps';
import { aUser, fakeUnitOfWork, META, PRESENTATION_CTX } from '../fake-tx.spec-support';
import type { SessionRepository } from '../session.repository';
import type { UserRepository } from '../user.repository';
import { UpdateUser } from './update-user.usecase';

function make(isGroupAdmin: boolean) {
  const fake = fakeUnitOfWork();
  const users = { findByRef: jest.fn(async () => aUser({ isGroupAdmin })), save: jest.fn(async () => undefined) };
  const sessions = { revokeAllOf: jest.fn(async () => []) };
  const audit = { append: jest.fn(async () => undefined) };
  const webhookSteps = { disableOfLostAccess: jest.fn(async () => []) };
  const rooms = { revokeFileLinks: jest.fn(async () => undefined) };
  const useCase = new UpdateUser(fake.uow, users as unknown as UserRepository, sessions as unknown as SessionRepository, PRESENTATION_CTX,
    audit as unknown as AuditRepository, webhookSteps as unknown as WebhookAccessSteps, rooms as unknown as RoomRepository);
  return { useCase, fake, rooms };
}

const ADMIN = { label: 'Ada', userId: 1, tokenId: 9 };

describe('UpdateUser: a demoted group admin', () => {
  it('revokes every private room\'s signed file links (they could read them all), in the same transaction', async () => {
    const { useCase, fake, rooms } = make(true);
    await useCase.execute({ actor: ADMIN, user: { id: 7 }, isGroupAdmin: false }, META);
    expect(rooms.revokeFileLinks).toHaveBeenCalledWith(fake.manager, 'every-private-room');
    expect(fake.emitted.map(([key]) => key)).toEqual([RoomAccessNarrowedV1.routingKey, UserUpdatedV1.routingKey]);
  });

  it('revokes nothing on a promotion or another change', async () => {
    for (const [was, cmd] of [[false, { isGroupAdmin: true }], [true, { title: 'Boss' }]] as const) {
      const { useCase, rooms } = make(was);
      await useCase.execute({ actor: ADMIN, user: { id: 7 }, ...cmd }, META);
      expect(rooms.revokeFileLinks).not.toHaveBeenCalled();
    }
  });
});
