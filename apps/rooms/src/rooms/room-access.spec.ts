import type { RoomEntity, UserEntity } from '../database/entities';
import { Actor, commandFailure } from '@app/contracts';
import {
  administrationOf, administrationRefusal, assertMayActOn, assertMayAdminister, assertMayUseRoom, assertNotConfined, mayManageWebhook,
  membershipDecides, movingRefusal, passesPrivateRoomRule, Standing,
} from './room-access';

const room = (privacy: 'public' | 'private', id = 5) => ({ id, name: 'Ops', privacy, ownerUserId: 40 }) as RoomEntity;
const user = (id: number, isGroupAdmin = false) => ({ id, isGroupAdmin }) as UserEntity;
const ref = { id: 5 };
const notFound = { error: { code: 'not_found', reason: 'room_not_found', field: 'room', detail: { ref: '5' } } };

describe('passesPrivateRoomRule', () => {
  const m = (s: Partial<Standing> = {}) => ({ isGroupAdmin: false, isMember: false, isOwner: false, ...s });

  it('lets anyone use a public room, and members, its owner, group admins and user-less actors a private one', () => {
    expect(passesPrivateRoomRule(room('public'), m())).toBe(true);
    expect(passesPrivateRoomRule(room('private'), m({ isMember: true }))).toBe(true);
    expect(passesPrivateRoomRule(room('private'), m({ isGroupAdmin: true }))).toBe(true);
    expect(passesPrivateRoomRule(room('private'), null)).toBe(true);
  });

  it('lets the owner in even when not in room_members', () => {
    expect(passesPrivateRoomRule(room('private'), m({ isOwner: true }))).toBe(true);
  });

  it('keeps anyone else out of a private room', () => {
    expect(passesPrivateRoomRule(room('private'), m())).toBe(false);
  });
});

describe('assertMayUseRoom', () => {
  it('refuses a room token on another room before looking at members', async () => {
    const members = jest.fn(async () => [1]);
    await expect(assertMayUseRoom({ label: 't', roomId: 9 }, null, room('private'), ref, members))
      .rejects.toMatchObject({ error: { code: 'forbidden', reason: 'outside_token_room' } });
    expect(members).not.toHaveBeenCalled();
  });

  it('reads members only for a user who is neither a group admin nor the owner, in a private room', async () => {
    const members = jest.fn(async () => [2]);
    await assertMayUseRoom({ label: 't', userId: 1 }, user(1), room('public'), ref, members);
    await assertMayUseRoom({ label: 't', userId: 1 }, user(1, true), room('private'), ref, members);
    await assertMayUseRoom({ label: 't', userId: 40 }, user(40), room('private'), ref, members);
    expect(members).not.toHaveBeenCalled();
    await assertMayUseRoom({ label: 't', userId: 2 }, user(2), room('private'), ref, members);
  });

  it('answers an outsider as if the room did not exist, naming only the reference sent', async () => {
    await expect(assertMayUseRoom({ label: 't', userId: 1 }, user(1), room('private'), ref, async () => [2])).rejects.toMatchObject(notFound);
    await expect(assertMayUseRoom({ label: 't', userId: 1 }, user(1), room('private'), { name: 'ops' }, async () => [2]))
      .rejects.toMatchObject({ error: { code: 'not_found', detail: { ref: 'ops' } } });
  });
});

describe('membershipDecides', () => {
  it('holds only for a user who is neither a group admin nor the owner, in a private room', () => {
    expect(membershipDecides(room('private'), user(1))).toBe(true);
    expect(membershipDecides(room('private'), user(1, true))).toBe(false);
    expect(membershipDecides(room('private'), user(40))).toBe(false);
    expect(membershipDecides(room('private'), null)).toBe(false);
    expect(membershipDecides(room('public'), user(1))).toBe(false);
  });
});

describe('assertMayActOn', () => {
  const outsider = { isGroupAdmin: false, isMember: false, isOwner: false };

  it('lets members, the owner, group admins and actors without a user act on a private room, and anyone on a public one', () => {
    expect(() => assertMayActOn({ label: 't', userId: 1 }, room('private'), ref, { ...outsider, isMember: true })).not.toThrow();
    expect(() => assertMayActOn({ label: 't', userId: 1 }, room('private'), ref, { ...outsider, isOwner: true })).not.toThrow();
    expect(() => assertMayActOn({ label: 't', userId: 1 }, room('private'), ref, { ...outsider, isGroupAdmin: true })).not.toThrow();
    expect(() => assertMayActOn({ label: 'v1 admin' }, room('private'), ref, null)).not.toThrow();
    expect(() => assertMayActOn({ label: 't', userId: 1 }, room('public'), ref, outsider)).not.toThrow();
  });

  it('answers an outsider as if the room did not exist (never its name), or as the caller words it', () => {
    expect(() => assertMayActOn({ label: 't', userId: 1 }, room('private'), ref, outsider)).toThrow(expect.objectContaining(notFound));
    expect(() => assertMayActOn({ label: 't', userId: 1 }, room('private'), ref, outsider, () => commandFailure('not_found', 'webhook_not_found', 'webhook')))
      .toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'not_found', reason: 'webhook_not_found' }) }));
  });

  it('refuses a room token outside its room, public or private, whatever the wording asked for', () => {
    const hidden = jest.fn(() => commandFailure('not_found', 'webhook_not_found', 'webhook'));
    expect(() => assertMayActOn({ label: 't', roomId: 9 }, room('public'), ref, null, hidden))
      .toThrow(expect.objectContaining({ error: expect.objectContaining({ code: 'forbidden', reason: 'outside_token_room' }) }));
    expect(hidden).not.toHaveBeenCalled();
    expect(() => assertMayActOn({ label: 't', roomId: 5 }, room('private'), ref, null)).not.toThrow();
  });
});

describe('assertNotConfined', () => {
  it('refuses a token confined to a room what concerns the group, and lets others through', () => {
    expect(() => assertNotConfined({ label: 't', roomId: 5 }, 'create rooms')).toThrow(expect.objectContaining({
      error: { code: 'forbidden', reason: 'not_allowed', field: 'room', detail: { message: 'This token is confined to one room (room 5): it may not create rooms.' } },
    }));
    for (const actor of [{ label: 't', userId: 1 }, { label: 'v1 admin' }] as Actor[]) expect(() => assertNotConfined(actor, 'create rooms')).not.toThrow();
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

describe('the members of a private room', () => {
  it('are managed by its owner, group admins and actors without a user only', () => {
    expect(administrationRefusal(room('private'), standing(40, { isOwner: true }), 'manage the members of')).toBeNull();
    expect(administrationRefusal(room('private'), standing(1, { isGroupAdmin: true }), 'manage the members of')).toBeNull();
    expect(administrationRefusal(room('private'), null, 'manage the members of')).toBeNull();
    expect(administrationRefusal(room('private'), standing(1, { isMember: true }), 'manage the members of'))
      .toBe("Only the room's owner and group admins may manage the members of room Ops.");
  });
});

describe('movingRefusal', () => {
  const actor = (userId?: number): Actor => (userId === undefined ? { label: 'addon' } : { label: 't', userId });

  it('lets anyone move themselves, whatever their token and standing', () => {
    expect(movingRefusal(room('public'), actor(1), standing(1), 1, false)).toBeNull();
    expect(movingRefusal(room('private'), actor(1), standing(1), 1, undefined)).toBeNull();
  });

  it('lets the owner and group admins move someone else with an administering token, and actors without a user with one', () => {
    expect(movingRefusal(room('public'), actor(40), standing(40, { isOwner: true }), 2, true)).toBeNull();
    expect(movingRefusal(room('public'), actor(1), standing(1, { isGroupAdmin: true }), 2, true)).toBeNull();
    expect(movingRefusal(room('public'), actor(), null, 2, true)).toBeNull();
  });

  it('refuses anyone else, a member with admin_room included, saying who may', () => {
    expect(movingRefusal(room('public'), actor(1), standing(1, { isMember: true }), 2, true))
      .toBe("Only the room's owner and group admins may move other people in or out of room Ops.");
    expect(movingRefusal(room('public'), actor(40), standing(40, { isOwner: true }), 2, false)).toMatch(/^Only user 2 themselves.*admin_room or admin_group/);
    expect(movingRefusal(room('public'), actor(), null, 2, false)).toMatch(/^Only user 2 themselves/);
  });
});

describe('the webhook rule', () => {
  const of = (userId: number | null, oauthClientId: string | null = null) => ({ userId, oauthClientId });
  const as = (s: Standing | null, addOn: string | null = null) => ({ standing: s, addOn });

  it('lets a user manage their own webhooks, and the owner and group admins everyone\'s, add-ons\' included', () => {
    expect(mayManageWebhook(as(standing(1)), of(1))).toBe(true);
    for (const admin of [standing(1, { isOwner: true }), standing(1, { isGroupAdmin: true })]) {
      expect(mayManageWebhook(as(admin), of(2))).toBe(true);
      expect(mayManageWebhook(as(admin), of(null, 'client-a'))).toBe(true);
    }
  });

  it('hides another user\'s webhook from any other user, a member of the room included, and from add-ons', () => {
    expect(mayManageWebhook(as(standing(1)), of(2))).toBe(false);
    expect(mayManageWebhook(as(standing(1, { isMember: true })), of(2))).toBe(false);
    expect(mayManageWebhook(as(null, 'client-a'), of(2))).toBe(false);
  });

  it('gives an add-on\'s webhook to its installation\'s tokens only, beside the owner and group admins', () => {
    expect(mayManageWebhook(as(null, 'client-a'), of(null, 'client-a'))).toBe(true);
    expect(mayManageWebhook(as(null, 'client-b'), of(null, 'client-a'))).toBe(false);
    expect(mayManageWebhook(as(standing(1, { isMember: true })), of(null, 'client-a'))).toBe(false);
    expect(mayManageWebhook(as(null), of(null, 'client-a'))).toBe(false);
  });

  it('keeps the room\'s rules for webhooks made with neither user nor add-on, and for a room token on users\' webhooks', () => {
    expect(mayManageWebhook(as(standing(1)), of(null))).toBe(true);
    expect(mayManageWebhook(as(null, 'client-a'), of(null))).toBe(true);
    expect(mayManageWebhook(as(null), of(2))).toBe(true);
  });
});
