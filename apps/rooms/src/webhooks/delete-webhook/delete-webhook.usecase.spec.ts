import { WebhookRegistrationsChangedV1 } from '@app/contracts';
import type { AuditRepository } from '../../audit/audit.repository';
import type { RoomRepository } from '../../rooms/room.repository';
import { fakeUnitOfWork, META } from '../../users/fake-tx.spec-support';
import type { WebhookRepository } from '../webhook.repository';
import { DeleteWebhook } from './delete-webhook.usecase';

const ADMIN = { standing: { userId: 1, isGroupAdmin: true, isMember: false, isOwner: false }, addOn: null };

function make(installationId: number | null = null) {
  const fake = fakeUnitOfWork();
  const calls: string[] = [];
  const rooms = {
    findWithStanding: jest.fn(async () => ({ room: { id: 5, privacy: 'private' }, ...ADMIN })),
    revokeFileLinks: jest.fn(async () => void calls.push('revokeFileLinks')),
  };
  const webhook = { id: 12, userId: 7, oauthClientId: null, installationId, url: 'https://hooks.example.com/x', event: 'room_file_upload', name: null };
  const webhooks = {
    lockRoom: jest.fn(async () => undefined),
    findByRef: jest.fn(async () => webhook),
    delete: jest.fn(async () => void calls.push('delete')),
  };
  const audit = { append: jest.fn(async () => undefined) };
  const useCase = new DeleteWebhook(fake.uow, rooms as unknown as RoomRepository, webhooks as unknown as WebhookRepository, audit as unknown as AuditRepository);
  return { useCase, fake, rooms, calls };
}

describe('DeleteWebhook', () => {
  const cmd = { actor: { label: 'admin', userId: 1, tokenId: 2 }, room: { id: 5 }, webhook: { id: 12 } };

  it('revokes the room\'s signed file links with the webhook: its receiver held them', async () => {
    const { useCase, fake, rooms, calls } = make();
    await useCase.execute(cmd, META);
    expect(calls).toEqual(['delete', 'revokeFileLinks']);
    expect(rooms.revokeFileLinks).toHaveBeenCalledWith(fake.manager, { roomIds: [5] });
    expect(fake.emitted).toEqual([[WebhookRegistrationsChangedV1.routingKey, { roomId: 5, webhookIds: [12] }]]);
  });

  it('revokes nothing when the deletion is refused (an add-on\'s webhook goes with the add-on)', async () => {
    const { useCase, rooms } = make(3);
    await expect(useCase.execute(cmd, META)).rejects.toMatchObject({ error: { code: 'forbidden' } });
    expect(rooms.revokeFileLinks).not.toHaveBeenCalled();
  });
});
