import type { RoomEntity, UserEntity } from '../database/entities';
import { commandFailure } from '@app/contracts';
import {
  administrationOf, administrationRefusal, assertMayActOn, assertMayAdminister, assertMayUseRoom, mayManageWebhook, membershipDecides,
  privateRoomRefusal, Standing, webhooksOwnedBy,
} from './room-access';

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

const standing = (userId: number, s: Partial<Standing> = {}): Standing => ({ userId, isGroupAdmin: false, isMember: false, isOwner: false, ...s });

describe('administrationRefusal', () => {
  it('lets the owner, a group admin and an actor without a user administer any room', () => {
    for (const privacy of ['public', 'private'] as const) {
      expect(administrationRefusal(room(privacy), standing(1, { isOwner: true }), 'delete')).toBeNull();
      expect(administrationRefusal(room(privacy), standing(1, { isGroupAdmin: true }), 'delete')).toBeNull();
      expect(administrationRefusal(room(privacy), null, 'delete')).toBeNull();
    }
  });

  it('refuses any other user, a member included, saying who may', () => {
    expect(administrationRefusal(room('public'), standing(1), 'delete')).toBe("Only the room's owner and group admins may delete room Ops.");
    expect(administrationRefusal(room('private'), standing(1, { isMember: true }), 'change the privacy of'))
      .toBe("Only the room's owner and group admins may change the privacy of room Ops.");
    expect(() => assertMayAdminister(room('public'), standing(1), 'rename')).toThrow(expect.objectContaining({
      error: { code: 'forbidden', reason: 'not_allowed', field: 'room', detail: { message: "Only the room's owner and group admins may rename room Ops." } },
    }));
  });

  it('has nothing to refuse when a PUT changes only the topic, or nothing', () => {
    expect(() => assertMayAdminister(room('public'), standing(1), null)).not.toThrow();
  });
});

describe('administrationOf', () => {
  it('names what a PUT administers, and nothing for the topic alone', () => {
    expect(administrationOf({})).toBeNull();
    expect(administrationOf({ topic: 'x' } as object)).toBeNull();
    expect(administrationOf({ name: 'New', topic: 'x' } as object)).toBe('rename');
    expect(administrationOf({ privacy: 'private', name: 'New' })).toBe('change the privacy of');
    expect(administrationOf({ ownerUserId: 3 })).toBe('change the owner of');
    expect(administrationOf({ isArchived: true })).toBe('archive');
    expect(administrationOf({ isArchived: false })).toBe('unarchive');
    expect(administrationOf({ guestAccessToken: null })).toBe('change guest access to');
  });
});

describe('the webhook rule', () => {
  const ofUser = (userId: number | null) => ({ userId });

  it('lets a user manage their own webhooks, and the owner and group admins everyone\'s', () => {
    expect(mayManageWebhook(standing(1), ofUser(1))).toBe(true);
    expect(mayManageWebhook(standing(1, { isOwner: true }), ofUser(2))).toBe(true);
    expect(mayManageWebhook(standing(1, { isGroupAdmin: true }), ofUser(2))).toBe(true);
  });

  it('hides another user\'s webhook from any other user, a member of the room included', () => {
    expect(mayManageWebhook(standing(1), ofUser(2))).toBe(false);
    expect(mayManageWebhook(standing(1, { isMember: true }), ofUser(2))).toBe(false);
  });

  it('keeps the room\'s rules for webhooks without a user (add-ons\') and actors without one', () => {
    expect(mayManageWebhook(standing(1), ofUser(null))).toBe(true);
    expect(mayManageWebhook(null, ofUser(2))).toBe(true);
  });

  it('lists a user their own, unless the owner or a group admin', () => {
    expect(webhooksOwnedBy(standing(7))).toBe(7);
    expect(webhooksOwnedBy(standing(7, { isMember: true }))).toBe(7);
    expect(webhooksOwnedBy(standing(7, { isOwner: true }))).toBeNull();
    expect(webhooksOwnedBy(standing(7, { isGroupAdmin: true }))).toBeNull();
    expect(webhooksOwnedBy(null)).toBeNull();
  });
});
