import { ChatRoomView, ChatUserView, v2Links } from '@app/contracts';

const lastMessage = (m: ChatRoomView['lastMessage']) => (m ? { id: m.id, date: m.date } : null);

/** GET /v2/user/{user}/chats: rooms (by name), then private chats (newest first), as the rooms service ordered them. */
export function toV2Chats(reply: { rooms: ChatRoomView[]; users: ChatUserView[] }, base: string, self: string) {
  const links = v2Links(base);
  return {
    items: [
      ...reply.rooms.map((r) => ({
        type: 'room' as const, id: r.id, name: r.name, privacy: r.privacy, unread: r.unread, mentioned: r.mentioned,
        last_message: lastMessage(r.lastMessage), links: { self: links.room(r.id) },
      })),
      ...reply.users.map((u) => ({
        type: 'user' as const, id: u.id, name: u.name, mention_name: u.mentionName, unread: u.unread, mentioned: u.mentioned,
        last_message: lastMessage(u.lastMessage), links: { self: links.user(u.id) },
      })),
    ],
    links: { self },
  };
}
