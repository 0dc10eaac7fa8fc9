import { CommandFailure } from '@app/contracts';
import { RoomEntity, UserEntity } from '../../database/entities';
import { assertMayEnter, assertMayMove } from './presence-rules';

const user = Object.assign(new UserEntity(), { id: 7, name: 'Ann' });
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

describe('assertMayMove', () => {
  it('lets a user move themselves, whatever else the token may do', () => {
    expect(errorOf(() => assertMayMove({ label: 'x', userId: 7 }, false, user))).toBeUndefined();
    expect(errorOf(() => assertMayMove({ label: 'x', userId: 7 }, undefined, user))).toBeUndefined();
  });

  it('lets an administrator move anyone, with or without a user of its own', () => {
    expect(errorOf(() => assertMayMove({ label: 'x', userId: 8 }, true, user))).toBeUndefined();
    expect(errorOf(() => assertMayMove({ label: 'room token', roomId: 3 }, true, user))).toBeUndefined();
  });

  it('refuses anyone else, saying who may', () => {
    for (const actor of [{ label: 'x', userId: 8 }, { label: 'x' }]) {
      expect(errorOf(() => assertMayMove(actor, false, user))).toEqual({
        code: 'forbidden', reason: 'not_allowed', field: 'user', detail: { message: expect.stringMatching(/^Only user 7 themselves.*admin_room or admin_group/) },
      });
    }
  });
});

describe('assertMayEnter', () => {
  it('lets anyone enter a public room, and members a private one', () => {
    expect(errorOf(() => assertMayEnter(room(), user, false))).toBeUndefined();
    expect(errorOf(() => assertMayEnter(room({ privacy: 'private' }), user, true))).toBeUndefined();
  });

  it('keeps non-members out of a private room', () => {
    expect(errorOf(() => assertMayEnter(room({ privacy: 'private' }), user, false))).toMatchObject({
      code: 'forbidden', reason: 'not_allowed', detail: { message: 'User 7 is not a member of the private room Ops: only its members may enter it.' },
    });
  });

  it('keeps everyone out of an archived room, members too', () => {
    for (const r of [room({ isArchived: true }), room({ isArchived: true, privacy: 'private' })]) {
      expect(errorOf(() => assertMayEnter(r, user, true))).toEqual({ code: 'invalid', reason: 'entering_archived_room', field: 'room', detail: { name: 'Ops' } });
    }
  });
});
