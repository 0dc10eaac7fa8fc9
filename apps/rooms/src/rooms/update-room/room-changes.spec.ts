import { RoomEntity } from '../../database/entities';
import { roomChanges } from './room-changes';

const room = (overrides: Partial<RoomEntity> = {}): RoomEntity => Object.assign(new RoomEntity(), {
  id: 7, name: 'Ops', topic: 'Deploys', privacy: 'public', ownerUserId: 3, isArchived: false,
  guestAccessToken: null, version: 'AB12CD34', createdAt: new Date('2020-01-01T00:00:00Z'), ...overrides,
});
const token = () => 'g'.repeat(32);

describe('roomChanges', () => {
  it('is empty when nothing is given or every value is the one the room has', () => {
    expect(roomChanges(room(), {}, token)).toEqual({});
    expect(roomChanges(room(), { name: 'Ops', privacy: 'public', topic: 'Deploys', isArchived: false, ownerUserId: 3, guestAccess: false }, token)).toEqual({});
    expect(roomChanges(room({ guestAccessToken: 'abc' }), { guestAccess: true }, token)).toEqual({});
  });

  it('keeps only the fields that change', () => {
    expect(roomChanges(room(), { name: 'ops', topic: 'Deploys', isArchived: true }, token)).toEqual({ name: 'ops', isArchived: true });
    expect(roomChanges(room({ isArchived: true }), { isArchived: false, privacy: 'private', ownerUserId: 4 }, token))
      .toEqual({ isArchived: false, privacy: 'private', ownerUserId: 4 });
    expect(roomChanges(room(), { topic: '' }, token)).toEqual({ topic: '' });
  });

  it('turns guest access on with a new token and off by dropping it', () => {
    expect(roomChanges(room(), { guestAccess: true }, token)).toEqual({ guestAccessToken: token() });
    expect(roomChanges(room({ guestAccessToken: 'abc' }), { guestAccess: false }, token)).toEqual({ guestAccessToken: null });
  });
});
