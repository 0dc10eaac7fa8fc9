import { RoomEntity, UserEntity } from '../database/entities';
import { dayBounds, formatHistoryDate } from './history-date';
import { extractMentionNames } from './mentions';
import { defaultMentionName, roomSlug, toRoomObject, toV1Room, toV1User } from './presenters';

const ctx = { baseUrl: 'https://chat.example.com', xmppMucDomain: 'conf.chat.example.com', groupId: 1 };

function room(overrides: Partial<RoomEntity> = {}): RoomEntity {
  return Object.assign(new RoomEntity(), {
    id: 7, name: 'Ops Team', topic: 'Deploys', privacy: 'public', ownerUserId: 3, isArchived: false,
    guestAccessToken: null, version: 'AB12CD34', createdAt: new Date('2020-01-01T00:00:00Z'), lastActiveAt: null,
    ...overrides,
  });
}

describe('room presentation', () => {
  it('builds the v1 ROOM record with every field', () => {
    expect(toV1Room(room(), ctx)).toEqual({
      room_id: 7, name: 'Ops Team', topic: 'Deploys', last_active: 0, created: 1577836800, owner_user_id: 3,
      is_archived: false, is_private: false, xmpp_jid: '1_ops_team@conf.chat.example.com', guest_access_url: null,
    });
    const withGuests = toV1Room(room({ guestAccessToken: 'g123', lastActiveAt: new Date(1_600_000_000_500) }), ctx);
    expect(withGuests.guest_access_url).toBe('https://chat.example.com/g/g123');
    expect(withGuests.last_active).toBe(1_600_000_000);
  });

  it('builds the webhook room object, with members only for private rooms', () => {
    expect(toRoomObject(room(), ctx)).toEqual({
      id: 7, is_archived: false, name: 'Ops Team', privacy: 'public', version: 'AB12CD34',
      links: {
        self: 'https://chat.example.com/v2/room/7',
        participants: 'https://chat.example.com/v2/room/7/participant',
        webhooks: 'https://chat.example.com/v2/room/7/webhook',
      },
    });
    expect(toRoomObject(room({ privacy: 'private' }), ctx).links.members).toBe('https://chat.example.com/v2/room/7/member');
  });

  it('slugs room names for XMPP ids', () => {
    expect(roomSlug('Ünïcode Room!! 2')).toBe('unicode_room_2');
    expect(roomSlug('***')).toBe('room');
  });
});

describe('user presentation', () => {
  const user = Object.assign(new UserEntity(), {
    id: 3, name: 'Ada Lovelace', mentionName: 'Ada', email: 'ada@example.com', title: 'Analyst',
    isGroupAdmin: true, timezone: 'Europe/London', status: 'offline', statusMessage: '', isDeleted: false,
    version: 'V1', createdAt: new Date('2020-01-01T00:00:00Z'), lastActiveAt: null,
  });

  it('builds the v1 USER record; is_deleted only where asked', () => {
    expect(toV1User(user, ctx, false)).toEqual({
      user_id: 3, name: 'Ada Lovelace', mention_name: 'Ada', email: 'ada@example.com', title: 'Analyst',
      photo_url: 'https://chat.example.com/img/silhouette_125.png', last_active: 0, created: 1577836800,
      status: 'offline', status_message: '', is_group_admin: 1, timezone: 'Europe/London',
    });
    expect(toV1User(user, ctx, true).is_deleted).toBe(0);
  });

  it('derives a mention name from the display name', () => {
    expect(defaultMentionName('Ada  Lovelace')).toBe('AdaLovelace');
    expect(defaultMentionName("Seán O'Brien-Smith")).toBe('SeánOBrien-Smith');
    expect(defaultMentionName('!!!')).toBe('user');
  });
});

describe('extractMentionNames', () => {
  it('finds @names once each, ignoring e-mail addresses and trailing punctuation', () => {
    expect(extractMentionNames('@Ada ping @bob. and @ada, mail x@y.com (@carol-1)')).toEqual(['ada', 'bob', 'carol-1']);
    expect(extractMentionNames('no mentions here')).toEqual([]);
  });
});

describe('history dates', () => {
  it('formats in the requested zone with a colon-less offset', () => {
    const d = new Date('2010-11-19T23:48:19Z');
    expect(formatHistoryDate(d, 'America/Los_Angeles')).toBe('2010-11-19T15:48:19-0800');
    expect(formatHistoryDate(d, 'UTC')).toBe('2010-11-19T23:48:19+0000');
  });

  it('computes day bounds in the zone', () => {
    expect(dayBounds('2010-11-19', 'America/Los_Angeles')).toEqual({
      start: new Date('2010-11-19T08:00:00Z'), end: new Date('2010-11-20T08:00:00Z'),
    });
    expect(dayBounds('2010-02-30', 'UTC')).toBeNull();
    expect(dayBounds('yesterday', 'UTC')).toBeNull();
  });

});
