import type { Actor, RoomRef } from '@app/contracts';
import type { RoomEntity } from '../database/entities';
import { Standing, standingOf, WebhookViewer } from './room-access';

/**
 * The access model's SQL form: room-access.ts states each rule, and a statement that must
 * apply one in SQL (a page cut after the filter, a read that carries the actor's standing in
 * the same round trip) takes its fragment from here, beside the rule, never a copy of its own.
 * Placeholders are the caller's (`$n`), so that each statement keeps its own numbering.
 */

/** The condition a reference puts on the rooms row `alias` (`param`: the placeholder that holds its id or name). */
export const roomRefWhere = (alias: string, ref: RoomRef, param: string): string =>
  ('id' in ref ? `${alias}.id = ${param}::int` : `lower(${alias}.name) = lower(${param}::text)`);

/** The value for roomRefWhere's placeholder. */
export const roomRefParam = (ref: RoomRef): number | string => ('id' in ref ? ref.id : ref.name);

/** Whether the user (`user`: a placeholder) is a group admin. */
const isGroupAdmin = (user: string) => `EXISTS (SELECT 1 FROM users WHERE id = ${user}::int AND is_group_admin)`;

/** Whether the user is a member of the rooms row `alias` (room_members). */
const isMember = (alias: string, user: string) => `EXISTS (SELECT 1 FROM room_members WHERE room_id = ${alias}.id AND user_id = ${user}::int)`;

/**
 * The acting user's standing in the rooms row `alias` and the add-on whose token acts, as
 * three columns (`user`, `token`: placeholders of the actor's user and token ids, null when
 * none): what standingFromRow reads back.
 */
export const standingColumns = (alias: string, user: string, token: string): string =>
  `(${user}::int IS NOT NULL AND ${isGroupAdmin(user)}) AS actor__is_group_admin,
   (${user}::int IS NOT NULL AND ${isMember(alias, user)}) AS actor__is_member,
   (SELECT i.oauth_client_id FROM api_tokens t JOIN addon_installations i ON i.id = t.addon_installation_id
     WHERE t.id = ${token}::int) AS actor__addon`;

/** standingColumns' placeholders' values, in that order. */
export const standingParams = (actor: Pick<Actor, 'userId' | 'tokenId'>): [number | null, number | null] => [actor.userId ?? null, actor.tokenId ?? null];

export interface StandingRow {
  actor__is_group_admin?: boolean | null;
  actor__is_member?: boolean | null;
  actor__addon?: string | null;
}

/** Who acts, from the columns standingColumns read beside the room. */
export function standingFromRow(actor: Pick<Actor, 'userId'>, room: Pick<RoomEntity, 'ownerUserId'>, row: StandingRow): WebhookViewer {
  const standing: Standing | null = actor.userId === undefined
    ? null : standingOf(actor.userId, room, row.actor__is_group_admin === true, row.actor__is_member === true);
  return { standing, addOn: row.actor__addon ?? null };
}

/**
 * The private-room rule (passesPrivateRoomRule) as a condition on the rooms row `alias`
 * for a viewer (`user`: the placeholder of their id; null: no user, who sees every room).
 */
export const passesPrivateRoomRuleSql = (alias: string, user: string): string =>
  `(${alias}.privacy = 'public' OR ${user}::int IS NULL OR ${alias}.owner_user_id = ${user}::int
    OR ${isGroupAdmin(user)} OR ${isMember(alias, user)})`;

/**
 * The webhook rule (mayManageWebhook) as a condition on the webhooks row `w`: `all` the
 * placeholder of whether the viewer administers the room (webhookViewerParams), `user` and
 * `addOn` of who they are.
 */
export const mayManageWebhookSql = (w: string, all: string, user: string, addOn: string): string =>
  `(${all}::boolean
    OR CASE WHEN ${w}.oauth_client_id IS NOT NULL THEN coalesce(${w}.oauth_client_id = ${addOn}::text, false)
            WHEN ${w}.created_by_user_id IS NOT NULL
              THEN CASE WHEN ${user}::int IS NOT NULL THEN ${w}.created_by_user_id = ${user}::int ELSE ${addOn}::text IS NULL END
            ELSE true END)`;

/** mayManageWebhookSql's placeholders' values, in that order. */
export const webhookViewerParams = (v: WebhookViewer): [boolean, number | null, string | null] =>
  [v.standing !== null && (v.standing.isGroupAdmin || v.standing.isOwner), v.standing?.userId ?? null, v.addOn];
