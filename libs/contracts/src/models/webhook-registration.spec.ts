import { isOrdered } from './webhook-registration';

describe('isOrdered', () => {
  const bridge = { kind: 'slack' as const, events: ['room_message' as const], matrixRoomId: null, matrixAccessToken: null };

  it('is the webhook\'s delivery setting, concurrent when a rooms service of the previous version says none', () => {
    expect(isOrdered({ delivery: 'ordered' })).toBe(true);
    expect(isOrdered({ delivery: 'concurrent' })).toBe(false);
    expect(isOrdered({} as { delivery: 'concurrent' })).toBe(false);
  });

  it('is always true for a bridge, whatever its row says: people read its posts in the room\'s order', () => {
    expect(isOrdered({ delivery: 'concurrent', bridge })).toBe(true);
    expect(isOrdered({ delivery: 'concurrent', bridge: null })).toBe(false);
  });
});
