import type { RoomDetailView, RoomView } from '@app/contracts';
import { toV2CreatedRoom, toV2ExpandedRoomItem, toV2Room, toV2RoomItem, toV2RoomStatistics } from './rooms.presenter';

const base = 'https://chat.example.com';
const ROOM: RoomView = {
  id: 7, name: 'Ops', topic: 'Deploys', privacy: 'public', isArchived: false, ownerUserId: 3,
  created: '2020-01-01T00:00:00.000Z', lastActive: null, xmppJid: '1_ops@conf.example.com', guestAccessUrl: null, version: 'AB12CD34',
};
const links = {
  self: `${base}/v2/room/7`, webhooks: `${base}/v2/room/7/webhook`, participants: `${base}/v2/room/7/participant`,
};

describe('v2 room presenter', () => {
  it('answers a creation with the id and the link to the room', () => {
    expect(toV2CreatedRoom(ROOM, base)).toEqual({ id: 7, links: { self: `${base}/v2/room/7` } });
  });

  it('lists a room with its links, members for private rooms only', () => {
    expect(toV2RoomItem(ROOM, base)).toEqual({ id: 7, name: 'Ops', privacy: 'public', is_archived: false, version: 'AB12CD34', links });
    expect(toV2RoomItem({ ...ROOM, privacy: 'private' }, base).links).toEqual({ ...links, members: `${base}/v2/room/7/member` });
    // expand=items: what a room list screen shows besides.
    expect(toV2ExpandedRoomItem(ROOM, base)).toEqual({
      ...toV2RoomItem(ROOM, base), topic: ROOM.topic, created: ROOM.created, last_active: ROOM.lastActive,
    });
  });

  it('shows the full room with its owner and participants as User objects', () => {
    const detail: RoomDetailView = {
      ...ROOM, guestAccessUrl: `${base}/g/abc`, lastActive: '2020-01-02T00:00:00.000Z', memberUserIds: [],
      participants: [{ userId: 9, name: 'Grace', mentionName: 'grace', version: 'V9' }],
      owner: { userId: 3, name: 'Ada', mentionName: 'ada', version: 'V3' },
    };
    expect(toV2Room(detail, base)).toEqual({
      id: 7, name: 'Ops', topic: 'Deploys', privacy: 'public', is_archived: false, is_guest_accessible: true,
      guest_access_url: `${base}/g/abc`, created: '2020-01-01T00:00:00.000Z', last_active: '2020-01-02T00:00:00.000Z',
      owner: { id: 3, name: 'Ada', mention_name: 'ada', version: 'V3', links: { self: `${base}/v2/user/3` } },
      participants: [{ id: 9, name: 'Grace', mention_name: 'grace', version: 'V9', links: { self: `${base}/v2/user/9` } }],
      statistics: { links: { self: `${base}/v2/room/7/statistics` } },
      xmpp_jid: '1_ops@conf.example.com', version: 'AB12CD34', delegate_admin_visibility: null, avatar_url: null, links,
    });
  });

  it('shows a room\'s statistics at the link its record gives, by id', () => {
    const detail: RoomDetailView = { ...ROOM, memberUserIds: [], participants: [] };
    const stats = toV2RoomStatistics({ roomId: 7, messagesSent: 3, lastActive: '2020-01-02T00:00:00.000Z' }, base);
    expect(stats).toEqual({ messages_sent: 3, last_active: '2020-01-02T00:00:00.000Z', links: { self: `${base}/v2/room/7/statistics` } });
    expect(stats.links.self).toBe(toV2Room(detail, base).statistics.links.self);
    // A room where nothing was ever sent.
    expect(toV2RoomStatistics({ roomId: 7, messagesSent: 0, lastActive: null }, base))
      .toEqual({ messages_sent: 0, last_active: null, links: { self: `${base}/v2/room/7/statistics` } });
  });
});
