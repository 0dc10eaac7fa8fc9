import { toV2Chats } from './chats.presenter';

describe('toV2Chats', () => {
  it('lists rooms, then private chats, each typed and linked, with the request\'s own link', () => {
    const at = { id: 'm1', date: '2026-11-29T06:00:00.000Z' };
    expect(toV2Chats({
      rooms: [{ id: 12, name: 'Ops', privacy: 'public', unread: 3, mentioned: true, lastMessage: at }],
      users: [{ id: 7, name: 'Ann Lee', mentionName: 'ann', unread: 100, mentioned: false, lastMessage: null }],
    }, 'https://chat.example', 'https://chat.example/v2/user/%40bob/chats')).toEqual({
      items: [
        { type: 'room', id: 12, name: 'Ops', privacy: 'public', unread: 3, mentioned: true, last_message: at, links: { self: 'https://chat.example/v2/room/12' } },
        { type: 'user', id: 7, name: 'Ann Lee', mention_name: 'ann', unread: 100, mentioned: false, last_message: null, links: { self: 'https://chat.example/v2/user/7' } },
      ],
      links: { self: 'https://chat.example/v2/user/%40bob/chats' },
    });
  });
});
