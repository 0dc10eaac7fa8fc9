import type { RoomEntity, UserEntity } from '../database/entities';
import { commandFailure } from '@app/contracts';
import { assertMayActOn, assertMayUseRoom, membershipDecides, privateRoomRefusal } from './room-access';

const room = (privacy: 'public' | 'private', id = 5) => ({ id, name: 'Ops', privacy }) as RoomEntity;
const user = (id: number, isGroupAdmin = false) => ({ id, isGroupAdmin }) as UserEntity;

describe('privateRoomRefusal', () => {
  it('lets anyone use a public room, and members, group admins and user-less actors a private one', () => {
    expect(privateRoomRefusal(room('public'), user(1), false, 'send to it')).toBeNull();
    expect(privateRoomRefusal(room('private'), user(1), true, 'send to it')).toBeNull();
    expect(privateRoomRefusal(room('private'), user(1, true), false, 'send to it')).toBeNull();
    expect(privateRoomRefusal(room('private'), null, false, 'send to it')).toBeNull();
  });

  it('refuses a non-member of a private room, saying why', () => {
    expect(privateRoomRefusal(room('private'), user(1), false, 'read its history'))
      .toBe('Room Ops is private: only its members and group admins may read its history.');
  });
});

describe('assertMayUseRoom', () => {
  it('refuses a room token on another room before looking at members', async () => {
    const members = jest.fn(async () => [1]);
    await expect(assertMayUseRoom({ label: 't', roomId: 9 }, null, room('private'), 'send to it', members))
      .rejects.toMatchObject({ error: { code: 'forbidden', reason: 'outside_token_room' } });
    expect(members).not.toHaveBeenCalled();
  });

  it('reads members only for a non-admin user in a private room', async () => {
    const members = jest.fn(async () => [2]);
    await assertMayUseRoom({ label: 't', userId: 1 }, user(1), room('public'), 'send to it', members);
    await assertMayUseRoom({ label: 't', userId: 1 }, user(1, true), room('private'), 'send to it', members);
    expect(members).not.toHaveBeenCalled();
    await expect(assertMayUseRoom({ label: 't', userId: 1 }, user(1), room('private'), 'send to it', members))
      .rejects.toMatchObject({ error: { code: 'forbidden', reason: 'not_allowed', detail: { message: expect.stringMatching(/private/) } } });
    await assertMayUseRoom({ label: 't', userId: 2 }, user(2), room('private'), 'send to it', members);
  });
});

describe('membershipDecides', () => {
  it('holds only for a user who is not a group admin, in a private room', () => {
    expect(membershipDecides(room('private'), user(1))).toBe(true);
    expect(membershipDecides(room('private'), user(1, true))).toBe(false);
    expect(membershipDecides(room('private'), null)).toBe(false);
    expect(membershipDecides(room('public'), user(1))).toBe(false);
  });
});

describe('assertMayActOn', () => {
  const outsider = { isGroupAdmin: false, isMember: false };

  it('lets members, group admins and actors without a user act on a private room, and anyone on a public one', () => {
    expect(() => assertMayActOn({ label: 't', userId: 1 }, room('private'), { isGroupAdmin: false, isMember: true })).not.toThrow();
    expect(() => assertMayActOn({ label: 't', userId: 1 }, room('private'), { isGroupAdmin: true, isMember: false })).not.toThrow();
    expect(() => assertMayActOn({ label: 'v1 admin' }, room('private'), null)).not.toThrow();
    expect(() => assertMayActOn({ label: 't', userId: 1 }, room('public'), outsider)).not.toThrow();
  });

  it('refuses an outsider as GET of the room does, or as the caller words it', () => {
    expect(() => assertMayActOn({ label: 't', userId: 1 }, room('private'), outsider)).toThrow(expect.objectContaining({
      error: { code: 'forbidden', reason: 'not_allowed', field: 'room', detail: { message: 'Room Ops is private: only its members and group admins may see it.' } },
    }));
    expect(() => assertMayActOn({ label: 't', userId: 1 }, room('private'), outsider, () => commandFailure('not_found', 'webhook_not_found', 'webhook')))
      .toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'not_found', reason: 'webhook_not_found' }) }));
  });

  it('refuses a room token outside its room, public or private, whatever the wording asked for', () => {
    const hidden = jest.fn(() => commandFailure('not_found', 'webhook_not_found', 'webhook'));
    expect(() => assertMayActOn({ label: 't', roomId: 9 }, room('public'), null, hidden))
      .toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'forbidden', reason: 'outside_token_room' }) }));
    expect(hidden).not.toHaveBeenCalled();
    expect(() => assertMayActOn({ label: 't', roomId: 5 }, room('private'), null)).not.toThrow();
  });
});
