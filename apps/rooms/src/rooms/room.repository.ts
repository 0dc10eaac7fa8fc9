import { Injectable } from '@nestjs/common';
import { Actor, commandFailure, RoomRef } from '@app/contracts';
import { preparedQuery } from '@app/common';
import { EntityManager } from 'typeorm';
import { RoomEntity, RoomMemberEntity, UserEntity } from '../database/entities';
import type { Memo } from '../outbox/unit-of-work';
import { isUniqueViolation } from '../shared/db-errors';
import { assertActorMayUse, assertMayActOn, assertMayUseRoom, PrivateRoomRefusal, roomNotFound, WebhookViewer } from './room-access';
import { passesPrivateRoomRuleSql, roomRefParam, roomRefWhere, standingColumns, standingFromRow, standingParams, StandingRow } from './room-access.sql';

export { roomNotFound };

export type RoomLock = 'none' | 'share' | 'update';

const noMemo: Memo = (_key, load) => load();

/** The key under which a batch shares a room read FOR SHARE (every send of the batch uses it). */
export const roomRefKey = (ref: RoomRef) => ('id' in ref ? `room:id:${ref.id}` : `room:name:${ref.name.toLowerCase()}`);

/** How a use the private-room rule governs reads what it needs. */
export interface RoomUseOptions {
  lock?: RoomLock;
  /** Shares the room and member reads within a transaction (a batch of sends). */
  memo?: Memo;
}

export type RoomAttribute = 'topic' | 'version' | 'isArchived' | 'name' | 'privacy' | 'ownerUserId' | 'guestAccessToken';

export interface RoomListQuery {
  includePrivate: boolean;
  includeArchived: boolean;
  viewerId: number | null;
  /** A token confined to one room (room and room-wide add-on tokens) lists that room only. */
  onlyRoomId: number | null;
  offset: number;
  limit: number;
}

/** A user as a room's record shows them (its participants, its owner). */
export interface RoomUserRow {
  id: number;
  name: string;
  mention_name: string;
  version: string;
}

/**
 * Whose signed file links a change of access revokes (RoomRepository.revokeFileLinks): those
 * of one room or some rooms, of the private rooms a user may read now (the private-room rule),
 * or of every private room.
 */
export type FileLinkScope = { roomIds: number[] } | { readableBy: number } | 'every-private-room';

/** A room with what its record shows besides: read in one statement (see RoomRepository.detail). */
export interface RoomDetail {
  room: RoomEntity;
  lastActive: Date | null;
  memberUserIds: number[];
  /** Who is in it now, in the order they entered (the first 1,000). */
  participants: RoomUserRow[];
  /** Asked for: null when not, or when no such user exists. */
  owner: RoomUserRow | null;
}

/** A room opened for an actor: the acting user's standing in it and the add-on whose token acts (room-access.ts). */
export interface OpenedRoom extends WebhookViewer {
  room: RoomEntity;
}

export interface RoomWithActivity {
  room: RoomEntity;
  lastActive: Date | null;
}

const COLUMNS = 'id, name, topic, privacy, owner_user_id, is_archived, guest_access_token, version, created_at';

interface RoomRow {
  id: number; name: string; topic: string; privacy: 'public' | 'private'; owner_user_id: number; is_archived: boolean;
  guest_access_token: string | null; version: string; created_at: Date; last_active?: Date | null;
}

const toEntity = (r: RoomRow): RoomEntity => Object.assign(new RoomEntity(), {
  id: r.id, name: r.name, topic: r.topic, privacy: r.privacy, ownerUserId: r.owner_user_id, isArchived: r.is_archived,
  guestAccessToken: r.guest_access_token, version: r.version, createdAt: r.created_at,
});

/**
 * A room read in another repository's statement (one round trip for the room and its rows):
 * its columns as `<alias>.<column> AS room__<column>` (no clash with the other table's), the
 * condition a reference puts on it, and the room such a row holds (null: no room matched).
 */
export const joinedRoom = {
  columns: (alias: string) => COLUMNS.split(', ').map((c) => `${alias}.${c} AS room__${c}`).join(', '),
  /** `param`: the placeholder that holds the id or the name. */
  where: roomRefWhere,
  param: roomRefParam,
  of(row: Record<string, unknown>): RoomEntity | null {
    if (row.room__id === null || row.room__id === undefined) return null;
    const r: Record<string, unknown> = {};
    for (const c of COLUMNS.split(', ')) r[c] = row[`room__${c}`];
    return toEntity(r as unknown as RoomRow);
  },
};

/** SQL of rooms and their members; plain SQL on the hot reads (a query builder per request costs). */
@Injectable()
export class RoomRepository {
  /**
   * The room a reference names, or not_found. `share` lets messages to one room commit
   * concurrently while a change of the room (which takes `update`) waits for them, so an
   * event never carries a room version older than the messages before it.
   */
  async findByRef(m: EntityManager, ref: RoomRef, lock: RoomLock = 'none'): Promise<RoomEntity> {
    const suffix = lock === 'share' ? ' FOR SHARE' : lock === 'update' ? ' FOR UPDATE' : '';
    const rows: RoomRow[] = await preparedQuery(m, `SELECT ${COLUMNS} FROM rooms r WHERE ${roomRefWhere('r', ref, '$1')}${suffix}`, [roomRefParam(ref)]);
    if (rows.length === 0) throw roomNotFound(ref);
    return toEntity(rows[0]);
  }

  /**
   * The room a reference names, for an actor who acts on it, and the acting user's standing
   * in it (null when no user acts), in one statement: not_found, or forbidden to a room token
   * outside its room. For what decides the private-room rule itself (moving oneself in or out
   * of a room); every other command opens with findForActor. With the standing, the add-on
   * whose token acts (for the webhook rule).
   */
  async openForActor(m: EntityManager, ref: RoomRef, actor: Actor, lock: RoomLock = 'none'): Promise<OpenedRoom> {
    const suffix = lock === 'share' ? ' FOR SHARE' : lock === 'update' ? ' FOR UPDATE' : '';
    const rows: Array<RoomRow & StandingRow> = await preparedQuery(m,
      `SELECT ${COLUMNS}, ${standingColumns('r', '$2', '$3')}
         FROM rooms r WHERE ${roomRefWhere('r', ref, '$1')}${suffix}`,
      [roomRefParam(ref), ...standingParams(actor)]);
    if (rows.length === 0) throw roomNotFound(ref);
    const room = toEntity(rows[0]);
    assertActorMayUse(actor, room);
    return { room, ...standingFromRow(actor, room, rows[0]) };
  }

  /**
   * The room a reference names, for an actor who acts on it: not_found, or forbidden to a
   * room token outside its room and to a user the private-room rule keeps from seeing it
   * (room-access.ts; `refuse` words that refusal). The opening of every command on a room
   * but history and sends (findForUse).
   */
  async findForActor(
    m: EntityManager, ref: RoomRef, actor: Actor, lock: RoomLock = 'none', refuse?: PrivateRoomRefusal,
  ): Promise<RoomEntity> {
    return (await this.findWithStanding(m, ref, actor, lock, refuse)).room;
  }

  /**
   * As findForActor, with the acting user's standing (null when no user acts), for what
   * the administration and webhook rules decide next (room-access.ts), in the same statement.
   */
  async findWithStanding(
    m: EntityManager, ref: RoomRef, actor: Actor, lock: RoomLock = 'none', refuse?: PrivateRoomRefusal,
  ): Promise<OpenedRoom> {
    const opened = await this.openForActor(m, ref, actor, lock);
    assertMayActOn(actor, opened.room, ref, opened.standing, refuse);
    return opened;
  }

  /**
   * As findForActor, for a use the private-room rule governs (reading history, sending):
   * `user` reads the acting user after the room; members are read only when they decide.
   * Answers the room and the acting user.
   */
  async findForUse(
    m: EntityManager, ref: RoomRef, actor: Actor, user: () => Promise<UserEntity | null>, opts: RoomUseOptions = {},
  ): Promise<{ room: RoomEntity; user: UserEntity | null }> {
    const memo = opts.memo ?? noMemo;
    const room = await memo(roomRefKey(ref), () => this.findByRef(m, ref, opts.lock));
    const acting = await user();
    await assertMayUseRoom(actor, acting, room, ref, () => memo(`members:${room.id}`, () => this.memberIds(m, room.id)));
    return { room, user: acting };
  }

  /**
   * A room's whole record for a viewer, in one statement (a read that made five round trips):
   * the room, its last activity, its members, who is in it now, its owner when asked for, and
   * the viewer's standing in it. not_found, or forbidden as findForActor is (`actor`: none
   * for v1, whose tokens see every room).
   */
  async detail(m: EntityManager, ref: RoomRef, actor: Actor | undefined, withOwner: boolean): Promise<RoomDetail> {
    const user = (alias: string) => `json_build_object('id', ${alias}.id, 'name', ${alias}.name, 'mention_name', ${alias}.mention_name, 'version', ${alias}.version)`;
    const rows: Array<RoomRow & StandingRow & { member_ids: number[]; participants: RoomUserRow[]; owner: RoomUserRow | null }> = await preparedQuery(m,
      `SELECT ${COLUMNS.split(', ').map((c) => `r.${c}`).join(', ')},
              (SELECT max(created_at) FROM messages WHERE room_id = r.id) AS last_active,
              ARRAY(SELECT user_id FROM room_members WHERE room_id = r.id ORDER BY user_id) AS member_ids,
              (SELECT coalesce(json_agg(${user('u')} ORDER BY p.entered_at, p.user_id), '[]'::json)
                 FROM (SELECT user_id, entered_at FROM room_participants WHERE room_id = r.id ORDER BY entered_at, user_id LIMIT 1000) p
                 JOIN users u ON u.id = p.user_id) AS participants,
              CASE WHEN $3::boolean THEN (SELECT ${user('o')} FROM users o WHERE o.id = r.owner_user_id) END AS owner,
              ${standingColumns('r', '$2', '$4')}
         FROM rooms r WHERE ${roomRefWhere('r', ref, '$1')}`,
      [roomRefParam(ref), actor?.userId ?? null, withOwner, actor?.tokenId ?? null],
    );
    if (rows.length === 0) throw roomNotFound(ref);
    const row = rows[0];
    const room = toEntity(row);
    if (actor) {
      assertMayActOn(actor, room, ref, standingFromRow(actor, room, row).standing);
    }
    return { room, lastActive: row.last_active ?? null, memberUserIds: row.member_ids, participants: row.participants, owner: row.owner };
  }

  /** A room's last activity: its newest message (an index lookup, no column to update). */
  async lastActive(m: EntityManager, roomId: number): Promise<Date | null> {
    const rows: Array<{ at: Date | null }> = await preparedQuery(m, 'SELECT max(created_at) AS at FROM messages WHERE room_id = $1', [roomId]);
    return rows[0]?.at ?? null;
  }

  async listWithActivity(m: EntityManager): Promise<RoomWithActivity[]> {
    const rows: RoomRow[] = await preparedQuery(m,
      `SELECT ${COLUMNS}, (SELECT max(created_at) FROM messages WHERE room_id = r.id) AS last_active FROM rooms r ORDER BY id`);
    return rows.map((r) => ({ room: toEntity(r), lastActive: r.last_active ?? null }));
  }

  /**
   * A page of rooms by id, filtered in SQL. `viewerId`: a user who sees only the private
   * rooms the private-room rule lets them see; null sees every private room. The rule in its
   * SQL form (room-access.sql.ts): the page is cut by OFFSET/LIMIT after the filter, so the
   * rule cannot be applied to rows once loaded.
   */
  async listPage(m: EntityManager, q: RoomListQuery): Promise<RoomWithActivity[]> {
    // The page is cut first: the last activity is looked up for its rooms only, not for those skipped.
    const rows: RoomRow[] = await preparedQuery(m,
      `SELECT ${COLUMNS}, (SELECT max(created_at) FROM messages WHERE room_id = r.id) AS last_active FROM (
         SELECT ${COLUMNS} FROM rooms r
          WHERE ($1::boolean OR r.privacy = 'public')
            AND ($2::boolean OR NOT r.is_archived)
            AND ${passesPrivateRoomRuleSql('r', '$3')}
            AND ($6::int IS NULL OR r.id = $6::int)
          ORDER BY r.id OFFSET $4 LIMIT $5) r
        ORDER BY r.id`,
      [q.includePrivate, q.includeArchived, q.viewerId, q.offset, q.limit, q.onlyRoomId]);
    return rows.map((r) => ({ room: toEntity(r), lastActive: r.last_active ?? null }));
  }

  /** Inserts a room, or conflict when the name is taken (case-insensitively). */
  async insert(m: EntityManager, room: RoomEntity): Promise<RoomEntity> {
    try {
      await m.getRepository(RoomEntity).insert(room);
    } catch (err) {
      if (isUniqueViolation(err)) throw commandFailure('conflict', 'room_name_taken', 'name', { name: room.name });
      throw err;
    }
    return m.getRepository(RoomEntity).findOneByOrFail({ id: room.id });
  }

  /** Saves changed attributes; conflict when a new name is taken (case-insensitively). */
  async update(m: EntityManager, id: number, changes: Partial<Pick<RoomEntity, RoomAttribute>>): Promise<void> {
    try {
      await m.getRepository(RoomEntity).update({ id }, changes);
    } catch (err) {
      if (isUniqueViolation(err, 'rooms_name_uq')) throw commandFailure('conflict', 'room_name_taken', 'name', { name: changes.name ?? '' });
      throw err;
    }
  }

  async delete(m: EntityManager, id: number): Promise<void> {
    await m.getRepository(RoomEntity).delete({ id });
  }

  /**
   * Someone or something may have lost access to these rooms: the signed file links issued
   * until now of the private ones among them are refused from now on (GetFileAccessV1 answers
   * the time). Public rooms' files are served by their URL alone: nothing to revoke. Run in the
   * change's transaction, after it (a room made private is private here).
   */
  async revokeFileLinks(m: EntityManager, scope: FileLinkScope): Promise<void> {
    if (scope !== 'every-private-room' && 'roomIds' in scope && scope.roomIds.length === 0) return;
    const [where, params]: [string, unknown[]] = scope === 'every-private-room' ? ['true', []]
      : 'roomIds' in scope ? ['r.id = ANY($1::int[])', [scope.roomIds]]
        : [passesPrivateRoomRuleSql('r', '$1'), [scope.readableBy]];
    // clock_timestamp(), not the transaction's start: a share committed while this waited for
    // the room's row issued its links before this; GREATEST keeps the time from going back.
    await m.query(
      `UPDATE rooms r SET file_links_revoked_at = GREATEST(r.file_links_revoked_at, clock_timestamp())
        WHERE r.privacy = 'private' AND ${where}`, params);
  }

  async addMember(m: EntityManager, roomId: number, userId: number): Promise<void> {
    await m.query('INSERT INTO room_members (room_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [roomId, userId]);
  }

  async memberIds(m: EntityManager, roomId: number): Promise<number[]> {
    const rows = await m.getRepository(RoomMemberEntity).find({ where: { roomId }, order: { userId: 'ASC' } });
    return rows.map((r) => r.userId);
  }
}
