import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** What a user holds, counted live (see UserHoldingsView): rooms, tokens and sessions. Webhooks are the WebhookRepository's. */
export interface HeldCounts {
  roomsOwned: number;
  /** Private rooms they are a member or the owner of. */
  privateRooms: number;
  /** Private rooms they are neither a member nor the owner of (a group admin sees them as such only). */
  privateRoomsNotTheirs: number;
  apiTokens: number;
  sessions: number;
}

/** SQL of a user's holdings: one statement of counts. */
@Injectable()
export class UserHoldingsRepository {
  async countsOf(m: EntityManager, userId: number): Promise<HeldCounts> {
    const rows: Array<{ rooms_owned: number; private_rooms: number; private_not_theirs: number; api_tokens: number; sessions: number }> = await m.query(
      `WITH theirs AS (
         SELECT r.id, r.privacy, coalesce(r.owner_user_id = $1, false) AS owned,
                (coalesce(r.owner_user_id = $1, false) OR EXISTS (SELECT 1 FROM room_members rm WHERE rm.room_id = r.id AND rm.user_id = $1)) AS in_room
           FROM rooms r)
       SELECT (SELECT count(*)::int FROM theirs WHERE owned) AS rooms_owned,
              (SELECT count(*)::int FROM theirs WHERE privacy = 'private' AND in_room) AS private_rooms,
              (SELECT count(*)::int FROM theirs WHERE privacy = 'private' AND NOT in_room) AS private_not_theirs,
              (SELECT count(*)::int FROM api_tokens WHERE user_id = $1 AND kind = 'personal' AND revoked_at IS NULL
                  AND (expires_at IS NULL OR expires_at > now())) AS api_tokens,
              (SELECT count(*)::int FROM api_tokens WHERE user_id = $1 AND kind = 'session' AND revoked_at IS NULL
                  AND expires_at > now()) AS sessions`,
      [userId]);
    const r = rows[0];
    return { roomsOwned: r.rooms_owned, privateRooms: r.private_rooms, privateRoomsNotTheirs: r.private_not_theirs, apiTokens: r.api_tokens, sessions: r.sessions };
  }
}
