import { CommandFailure } from '@app/contracts';
import { RoomEntity } from '../../database/entities';
import { assertNotArchived } from './presence-rules';

const room = (changes: Partial<RoomEntity> = {}) =>
  Object.assign(new RoomEntity(), { id: 3, name: 'Ops', privacy: 'public', isArchived: false, ...changes });
const errorOf = (fn: () => void) => {
  try {
    fn();
  } catch (err) {
    return (err as CommandFailure).error;
  }
  return undefined;
};

describe('assertNotArchived', () => {
  it('lets anyone enter a room that is not archived', () => {
    expect(errorOf(() => assertNotArchived(room()))).toBeUndefined();
    expect(errorOf(() => assertNotArchived(room({ privacy: 'private' })))).toBeUndefined();
  });

  it('keeps everyone out of an archived room, members too', () => {
    for (const r of [room({ isArchived: true }), room({ isArchived: true, privacy: 'private' })]) {
      expect(errorOf(() => assertNotArchived(r))).toMatchObject({ code: 'invalid', reason: 'entering_archived_room' });
    }
  });
});
