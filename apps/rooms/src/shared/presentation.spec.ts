import { RoomEntity, UserEntity } from '../database/entities';
import { defaultMentionName, roomSlug, toRoomObject, toRoomView, toUserObject, toUserView } from './presentation';

const ctx = { baseUrl: 'https://chat.example.com', xmppMucDomain: 'conf.chat.example.com', groupId: 1 };

function room(overrides: Partial<RoomEntity> = {}): RoomEntity {
  return Object.assign(new RoomEntity(), {
    id: 7, name: 'Ops Team', topic: 'Deploys', privacy: 'public', ownerUserId: 3, isArchived: false,
    guestAccessToken: null, version: 'AB12CD34', createdAt: new Date('2020-01-01T00:00:00Z'),
    ...overrides,
  });
}

describe('room presentation', () => {
  it('builds the API-neutral room view with every field', () => {
    expect(toRoomView(room(), null, ctx)).toEqual({
      id: 7, name: 'Ops Team', topic: 'Deploys', privacy: 'public', isArchived: false, ownerUserId: 3,
      created: '2020-01-01T00:00:00.000Z', lastActive: null, xmppJid: '1_ops_team@conf.chat.example.com',
      guestAccessUrl: null, version: 'AB12CD34',
    });
    const withGuests = toRoomView(room({ guestAccessToken: 'g123' }), new Date(1_600_000_000_500), ctx);
    expect(withGuests.guestAccessUrl).toBe('https://chat.example.com/g/g123');
    expect(withGuests.lastActive).toBe('2020-09-13T12:26:40.500Z');
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

  it('answers the same slug from its memo, and stays right past the memo\'s bound', () => {
    expect(roomSlug('Ünïcode Room!! 2')).toBe('unicode_room_2');
    for (let i = 0; i < 20_050; i++) expect(roomSlug(`Röom ${i}`)).toBe(`room_${i}`);
    expect(roomSlug('Ünïcode Room!! 2')).toBe('unicode_room_2');
    expect(roomSlug('Röom 7')).toBe('room_7');
  });
});

describe('user presentation', () => {
  const user = Object.assign(new UserEntity(), {
    id: 3, name: 'Ada Lovelace', mentionName: 'Ada', email: 'ada@example.com', title: 'Analyst',
    isGroupAdmin: true, timezone: 'Europe/London', status: 'offline', statusMessage: '', isDeleted: false,
    version: 'V1', createdAt: new Date('2020-01-01T00:00:00Z'), lastActiveAt: null,
  });

  it('builds the API-neutral user view and the webhook user object', () => {
    expect(toUserView(user, ctx)).toEqual({
      id: 3, name: 'Ada Lovelace', mentionName: 'Ada', email: 'ada@example.com', title: 'Analyst',
      photoUrl: 'https://chat.example.com/img/silhouette_125.png', created: '2020-01-01T00:00:00.000Z', lastActive: null,
      status: 'offline', statusMessage: '', isGroupAdmin: true, isDeleted: false, isGuest: false, timezone: 'Europe/London',
      xmppJid: '1_3@chat.chat.example.com', version: 'V1',
    });
    expect(toUserObject(user, ctx)).toEqual({
      id: 3, links: { self: 'https://chat.example.com/v2/user/3' }, mention_name: 'Ada', name: 'Ada Lovelace', version: 'V1',
    });
  });

  it('derives a mention name from the display name', () => {
    expect(defaultMentionName('Ada  Lovelace')).toBe('AdaLovelace');
    expect(defaultMentionName("Seán O'Brien-Smith")).toBe('SeánOBrien-Smith');
    expect(defaultMentionName('!!!')).toBe('user');
  });
});
