import { randomBytes } from 'node:crypto';
import { RoomObject, UserObject, V1Room, V1User } from '@app/contracts';
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

export const unixSeconds = (d: Date | null | undefined): number => (d ? Math.floor(d.getTime() / 1000) : 0);

export function roomSlug(name: string): string {
  const slug = name.toLowerCase().normalize('NFKD').replace(/\p{M}+/gu, '').replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return slug || 'room';
}

export function toV1Room(room: RoomEntity, ctx: PresentationContext): V1Room {
  return {
    room_id: room.id,
    name: room.name,
    topic: room.topic,
    last_active: unixSeconds(room.lastActiveAt),
    created: unixSeconds(room.createdAt),
    owner_user_id: room.ownerUserId,
    is_archived: room.isArchived,
    is_private: room.privacy === 'private',
    xmpp_jid: `${ctx.groupId}_${roomSlug(room.name)}@${ctx.xmppMucDomain}`,
    guest_access_url: room.guestAccessToken ? `${ctx.baseUrl}/g/${room.guestAccessToken}` : null,
  };
}

export function toRoomObject(room: RoomEntity, ctx: PresentationContext): RoomObject {
  const self = `${ctx.baseUrl}/v2/room/${room.id}`;
  return {
    id: room.id,
    is_archived: room.isArchived,
    links: {
      self,
      participants: `${self}/participant`,
      webhooks: `${self}/webhook`,
      ...(room.privacy === 'private' ? { members: `${self}/member` } : {}),
    },
    name: room.name,
    privacy: room.privacy,
    version: room.version,
  };
}

export function toUserObject(user: UserEntity, ctx: PresentationContext): UserObject {
  return {
    id: user.id,
    links: { self: `${ctx.baseUrl}/v2/user/${user.id}` },
    mention_name: user.mentionName,
    name: user.name,
    version: user.version,
  };
}

export function toV1User(user: UserEntity, ctx: PresentationContext, withDeletedFlag: boolean): V1User {
  const record: V1User = {
    user_id: user.id,
    name: user.name,
    mention_name: user.mentionName,
    email: user.email,
    title: user.title,
    photo_url: `${ctx.baseUrl}/img/silhouette_125.png`,
    last_active: unixSeconds(user.lastActiveAt),
    created: unixSeconds(user.createdAt),
    status: user.status as V1User['status'],
    status_message: user.statusMessage,
    is_group_admin: user.isGroupAdmin ? 1 : 0,
    timezone: user.timezone,
  };
  if (withDeletedFlag) record.is_deleted = user.isDeleted ? 1 : 0;
  return record;
}

/**
 * Default mention name: the display name without white space and without the characters
 * an explicit mention_name may not contain (anything but letters, digits, `_`, `.`, `-`).
 */
export function defaultMentionName(name: string): string {
  return name.replace(/[^\p{L}\p{N}_.-]+/gu, '').slice(0, 50) || 'user';
}
