import { passesPrivateRoomRule } from '../../rooms/room-access';
import type { CreatorStanding } from '../webhook.repository';

/** What `disabled_reason` says of a webhook disabled because its creator may no longer read its room. */
export const CREATOR_LOST_ACCESS = 'creator_lost_access';

/**
 * Whether a webhook's creator may no longer read the webhook's room: deleted, or kept out
 * by the private-room rule (room-access.ts: not a member of a private room, nor its owner,
 * nor a group admin). Such a webhook gets nothing more of the room, and its replies are not posted.
 */
export function creatorLostAccess(s: Pick<CreatorStanding, 'room' | 'creator'>): boolean {
  if (s.creator.isDeleted) return true;
  return !passesPrivateRoomRule(s.room, s.creator);
}

/**
 * Why a webhook's reply is not posted, or null when it may be: the webhook is gone, is not
 * of the room the reply goes to, its creator may no longer read the room, or it is disabled.
 */
export function replyRefusal(
  webhookId: number, roomId: number, found: { roomId: number | null; enabled: boolean; creator: Pick<CreatorStanding, 'room' | 'creator'> | null } | null,
): string | null {
  if (!found || (found.roomId !== null && found.roomId !== roomId)) return `Webhook ${webhookId} no longer exists in this room: its reply is not posted.`;
  // The loss first: it says why (the webhook is disabled for it, too).
  if (found.creator && creatorLostAccess(found.creator)) return `The creator of webhook ${webhookId} may no longer read this room: its reply is not posted.`;
  if (!found.enabled) return `Webhook ${webhookId} is disabled: its reply is not posted.`;
  return null;
}
