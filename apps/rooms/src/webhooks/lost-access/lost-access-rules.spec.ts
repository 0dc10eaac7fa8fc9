import { creatorLostAccess, replyRefusal } from './lost-access-rules';

const standing = (privacy: 'public' | 'private', creator: Partial<{ isDeleted: boolean; isGroupAdmin: boolean; isMember: boolean; isOwner: boolean }> = {}) => ({
  room: { privacy },
  creator: { id: 7, isDeleted: false, isGroupAdmin: false, isMember: false, isOwner: false, ...creator },
});

describe('a webhook whose creator lost access to its room', () => {
  it('is one whose creator was deleted, or whom the private-room rule keeps out', () => {
    expect(creatorLostAccess(standing('public'))).toBe(false);
    expect(creatorLostAccess(standing('public', { isDeleted: true }))).toBe(true);
    expect(creatorLostAccess(standing('private'))).toBe(true);
    expect(creatorLostAccess(standing('private', { isMember: true }))).toBe(false);
    expect(creatorLostAccess(standing('private', { isGroupAdmin: true }))).toBe(false);
    // The owner is never kept out of their own room, in room_members or not.
    expect(creatorLostAccess(standing('private', { isOwner: true }))).toBe(false);
    expect(creatorLostAccess(standing('private', { isGroupAdmin: true, isDeleted: true }))).toBe(true);
  });

  it('has its reply refused: gone, of another room, disabled, or its creator out', () => {
    expect(replyRefusal(4, 1, { roomId: 1, enabled: true, creator: standing('private', { isMember: true }) })).toBeNull();
    expect(replyRefusal(4, 1, { roomId: null, enabled: true, creator: null })).toBeNull();
    expect(replyRefusal(4, 1, { roomId: 1, enabled: true, creator: null })).toBeNull();
    expect(replyRefusal(4, 1, null)).toMatch(/no longer exists/);
    expect(replyRefusal(4, 1, { roomId: 2, enabled: true, creator: null })).toMatch(/no longer exists/);
    expect(replyRefusal(4, 1, { roomId: 1, enabled: false, creator: null })).toMatch(/disabled/);
    expect(replyRefusal(4, 1, { roomId: 1, enabled: true, creator: standing('private') })).toMatch(/may no longer read this room/);
    // Disabled for that loss: the loss is what it says.
    expect(replyRefusal(4, 1, { roomId: 1, enabled: false, creator: standing('private') })).toMatch(/may no longer read this room/);
  });
});
