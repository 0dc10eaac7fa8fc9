import { RoomAccessNarrowedV1, RoomMemberExitedV2 } from '@app/contracts';
import type { AuditRepository } from '../../../audit/audit.repository';
import type { RoomEntity } from '../../../database/entities';
import { aUser, fakeUnitOfWork, META, PRESENTATION_CTX } from '../../../users/fake-tx.spec-support';
import type { UserRepository } from '../../../users/user.repository';
import type { WebhookAccessSteps } from '../../../webhooks/lost-access/webhook-access-steps';
import type { ParticipantRepository } from '../../participants/participant.repository';
import type { RoomRepository } from '../../room.repository';
import type { MemberRepository } from '../member.repository';
import { RemoveMember } from './remove-member.usecase';

const ROOM = { id: 5, name: 'Falcon', privacy: 'private', ownerUserId: 1, isArchived: false, topic: '', guestAccessToken: null, version: 'v', createdAt: new Date(0) } as RoomEntity;
const OWNER = { standing: { userId: 1, isGroupAdmin: false, isMember: true, isOwner: true }, addOn: null };

function make(room: RoomEntity = ROOM) {
  const fake = fakeUnitOfWork();
  const calls: string[] = [];
  const rooms = {
    findWithStanding: jest.fn(async () => ({ room, ...OWNER })),
    revokeFileLinks: jest.fn(async () => void calls.push('revokeFileLinks')),
  };
  const users = { findByRef: jest.fn(async () => aUser()) };
  const members = { remove: jest.fn(async () => void calls.push('remove')) };
  const participants = { exit: jest.fn(async () => true) };
  const audit = { append: jest.fn(async () => undefined) };
  const webhookSteps = { disableOfLostAccess: jest.fn(async () => []) };
  const useCase = new RemoveMember(fake.uow, rooms as unknown as RoomRepository, users as unknown as UserRepository, members as unknown as MemberRepository,
    participants as unknown as ParticipantRepository, PRESENTATION_CTX, audit as unknown as AuditRepository, webhookSteps as unknown as WebhookAccessSteps);
  return { useCase, fake, rooms, members, webhookSteps, calls };
}

describe('RemoveMember', () => {
  it('revokes the room\'s signed file links in the removal\'s transaction, after it (the member may hold some)', async () => {
    const { useCase, fake, rooms, webhookSteps, calls } = make();
    await useCase.execute({ actor: { label: 'owner', userId: 1, tokenId: 2 }, room: { id: 5 }, user: { id: 7 } }, META);
    expect(rooms.revokeFileLinks).toHaveBeenCalledWith(fake.manager, { roomIds: [5] });
    expect(calls).toEqual(['remove', 'revokeFileLinks']);
    expect(webhookSteps.disableOfLostAccess).toHaveBeenCalledWith(expect.anything(), { roomId: 5, userId: 7 });
    expect(fake.emitted.map(([key]) => key)).toEqual([RoomAccessNarrowedV1.routingKey, RoomMemberExitedV2.routingKey]);
  });

  it('revokes nothing when the removal is refused (a public room has no members to remove)', async () => {
    const { useCase, rooms, members } = make({ ...ROOM, privacy: 'public' } as RoomEntity);
    await expect(useCase.execute({ actor: { label: 'owner', userId: 1, tokenId: 2 }, room: { id: 5 }, user: { id: 7 } }, META))
      .rejects.toMatchObject({ error: { code: 'invalid' } });
    expect(members.remove).not.toHaveBeenCalled();
    expect(rooms.revokeFileLinks).not.toHaveBeenCalled();
  });
});
