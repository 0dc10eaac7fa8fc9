import { TokenRevokedV1, WebhookRegistrationsChangedV1 } from '@app/contracts';
import type { AuditRepository } from '../audit/audit.repository';
import type { RoomRepository } from '../rooms/room.repository';
import { fakeUnitOfWork, META } from '../users/fake-tx.spec-support';
import type { AddonRepository } from './addon.repository';
import { AddonRemoval } from './addon-removal';

/** The removal on a fake transaction, of an installation in room `roomId` (null: group-wide). */
function make(roomId: number | null) {
  const fake = fakeUnitOfWork();
  const addons = {
    lockForRemoval: jest.fn(async () => ({ id: 3, roomId, callbackUrl: 'https://addon.example.com', oauthClientId: 'oc' })),
    revokeTokens: jest.fn(async () => [41]),
    delete: jest.fn(async () => new Map([[roomId ?? 8, [51]]])),
  };
  const audit = { append: jest.fn(async () => undefined), subjectOf: jest.fn(async () => ({ type: 'addon', id: 3, name: 'Add-on' })) };
  const rooms = { revokeFileLinks: jest.fn(async () => undefined) };
  const removal = new AddonRemoval(fake.uow, addons as unknown as AddonRepository, audit as unknown as AuditRepository, rooms as unknown as RoomRepository);
  return { removal, fake, rooms };
}

describe('AddonRemoval: the signed file links its receivers held are revoked with it', () => {
  it('of its room, for an add-on installed in one room', async () => {
    const { removal, fake, rooms } = make(5);
    expect(await removal.remove(3, META)).toMatchObject({ removed: { id: 3 } });
    expect(rooms.revokeFileLinks).toHaveBeenCalledWith(fake.manager, { roomIds: [5] });
    expect(fake.emitted.map(([key]) => key)).toEqual([TokenRevokedV1.routingKey, WebhookRegistrationsChangedV1.routingKey]);
  });

  it('of every private room, for an add-on installed group-wide (its tokens could read them all)', async () => {
    const { removal, fake, rooms } = make(null);
    await removal.remove(3, META);
    expect(rooms.revokeFileLinks).toHaveBeenCalledWith(fake.manager, 'every-private-room');
  });

  it('revokes nothing when a room token tries another room\'s add-on (refused before any write)', async () => {
    const { removal, rooms } = make(5);
    await expect(removal.remove(3, META, { label: 'room', tokenId: 9, roomId: 6 })).rejects.toMatchObject({ error: { code: 'forbidden' } });
    expect(rooms.revokeFileLinks).not.toHaveBeenCalled();
  });
});
