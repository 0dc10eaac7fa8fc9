import { v2Links, type PrivateMessageView, type UserHoldingsView, type UserView } from '@app/contracts';

/** v2 shapes of the rooms service's user views; `base` is the public base URL without a trailing slash. */

/** HipChat's presence `show`: what the service records as status. */
const SHOW = { available: 'chat', away: 'away', dnd: 'dnd' } as const;

export interface V2Presence {
  show: 'chat' | 'away' | 'dnd';
  status: string | null;
  is_online: boolean;
}

/** null for an offline user, as HipChat answered for users without a session. */
export function presenceOf(user: UserView): V2Presence | null {
  if (user.status === 'offline') return null;
  return { show: SHOW[user.status], status: user.statusMessage || null, is_online: true };
}

/** Group admins hold `admin` besides `user`; guests only `guest`. */
export function rolesOf(user: UserView): string[] {
  if (user.isGuest) return ['guest'];
  return user.isGroupAdmin ? ['user', 'admin'] : ['user'];
}

/** The v2 user record (GET /v2/user/{user}), fields in the compatibility reference's order. */
export function toV2User(user: UserView, base: string) {
  return {
    id: user.id,
    name: user.name,
    mention_name: user.mentionName,
    email: user.email,
    title: user.title,
    photo_url: user.photoUrl,
    last_active: user.lastActive,
    created: user.created,
    presence: presenceOf(user),
    timezone: user.timezone,
    is_group_admin: user.isGroupAdmin,
    is_guest: user.isGuest,
    is_deleted: user.isDeleted,
    xmpp_jid: user.xmppJid,
    roles: rolesOf(user),
    version: user.version,
    links: { self: v2Links(base).user(user.id) },
  };
}

/** A user as lists and other objects embed it (the webhook User object). */
export function toV2UserItem(user: Pick<UserView, 'id' | 'name' | 'mentionName' | 'version'>, base: string) {
  return { id: user.id, name: user.name, mention_name: user.mentionName, version: user.version, links: { self: v2Links(base).user(user.id) } };
}

/** 201 of POST /v2/user: HipChat's `{id, links}`, and the new user as `entity`. */
export function toV2CreatedUser(user: UserView, base: string) {
  return { id: user.id, links: { self: v2Links(base).user(user.id) }, entity: toV2UserItem(user, base) };
}

/** An item of the private chat history. */
export function toV2PrivateMessage(message: PrivateMessageView, base: string) {
  return {
    id: message.id,
    date: message.date,
    from: toV2UserItem(message.from, base),
    message: message.message,
    type: 'message' as const,
    message_format: message.messageFormat,
  };
}

/** GET /v2/user/{user}/holdings: the counts by v2 names, and the sentences as they are. */
export function toV2Holdings(h: UserHoldingsView) {
  return {
    user_id: h.userId,
    is_group_admin: h.isGroupAdmin,
    rooms_owned: h.roomsOwned,
    private_rooms: h.privateRooms,
    api_tokens: h.apiTokens,
    sessions: h.sessions,
    webhooks: h.webhooks,
    bridges: h.bridges,
    if_demoted: { private_rooms: h.ifDemoted.privateRooms, webhooks: h.ifDemoted.webhooks, bridges: h.ifDemoted.bridges },
    on_delete: h.onDelete,
    on_demote: h.onDemote,
  };
}
