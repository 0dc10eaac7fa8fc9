import { randomBytes } from 'node:crypto';
import { RoomObject, RoomView, UserObject, UserView, v2Links } from '@app/contracts';
import type { RoomEntity, UserEntity } from '../database/entities';

/** Where public links point, and the XMPP naming of rooms. */
export interface PresentationContext {
  /** Public base URL of the gateway, without a trailing slash. */
  baseUrl: string;
  xmppMucDomain: string;
  groupId: number;
}

/** Etag-like random version string, renewed on every change of a room or user. */
export function newVersion(): string {
  return randomBytes(4).toString('hex').toUpperCase();
}

export function roomSlug(name: string): string {
  let slug = slugs.get(name);
  if (slug === undefined) {
    slug = name.toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '').replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'room';
    // Bounded: a list of every room computes each name's slug once, not once per list
    // (NFKD and a Unicode regex were 1% of the rooms service's CPU on rooms/list).
    if (slugs.size >= SLUGS_MAX) slugs.clear();
    slugs.set(name, slug);
  }
  return slug;
}

const SLUGS_MAX = 20_000;
const slugs = new Map<string, string>();

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** The API-neutral view the rooms service answers with. */
export function toRoomView(room: RoomEntity, lastActive: Date | null, ctx: PresentationContext): RoomView {
  return {
    id: room.id,
    name: room.name,
    topic: room.topic,
    privacy: room.privacy,
    isArchived: room.isArchived,
    ownerUserId: room.ownerUserId,
    created: room.createdAt.toISOString(),
    lastActive: iso(lastActive),
    xmppJid: `${ctx.groupId}_${roomSlug(room.name)}@${ctx.xmppMucDomain}`,
    guestAccessUrl: room.guestAccessToken ? `${ctx.baseUrl}/g/${room.guestAccessToken}` : null,
    version: room.version,
  };
}

export function toUserView(user: UserEntity, ctx: PresentationContext): UserView {
  return {
    id: user.id,
    name: user.name,
    mentionName: user.mentionName,
    email: user.email,
    title: user.title,
    photoUrl: `${ctx.baseUrl}/img/silhouette_125.png`,
    created: user.createdAt.toISOString(),
    lastActive: iso(user.lastActiveAt),
    status: user.status as UserView['status'],
    statusMessage: user.statusMessage,
    isGroupAdmin: user.isGroupAdmin,
    isDeleted: user.isDeleted,
    isGuest: user.isGuest ?? false,
    timezone: user.timezone,
    xmppJid: userJid(user.id, ctx),
    version: user.version,
  };
}

/**
 * A user's XMPP address, `<group>_<user>@chat.<domain>` as HipChat named them: users live
 * on the chat domain beside the rooms' MUC (`conf.`) domain.
 */
export function userJid(userId: number, ctx: PresentationContext): string {
  const domain = ctx.xmppMucDomain.replace(/^conf\./, '');
  return `${ctx.groupId}_${userId}@chat.${domain}`;
}

/** The Room object of webhook events (specification, "Resources and their fields"). */
export function toRoomObject(room: RoomEntity, ctx: PresentationContext): RoomObject {
  return {
    id: room.id,
    is_archived: room.isArchived,
    links: v2Links(ctx.baseUrl).roomLinks(room),
    name: room.name,
    privacy: room.privacy,
    version: room.version,
  };
}

export function toUserObject(user: UserEntity, ctx: PresentationContext): UserObject {
  return {
    id: user.id,
    links: { self: v2Links(ctx.baseUrl).user(user.id) },
    mention_name: user.mentionName,
    name: user.name,
    version: user.version,
  };
}

/**
 * Default mention name: the display name without white space and without the characters
 * an explicit mention_name may not contain (anything but letters, digits, `_`, `.`, `-`).
 */
export function defaultMentionName(name: string): string {
  return name.replace(/[^\p{L}\p{N}_.-]+/gu, '').slice(0, 50) || 'user';
}
