import { Injectable } from '@nestjs/common';
import type { Actor, AuditAction, AuditActorType, AuditEntryView, AuditSubject } from '@app/contracts';
import { EntityManager } from 'typeorm';
import { ActorFacts, AuditLine, auditActorOf, cleanDetails, cleanSubject } from './audit-line';

interface AuditRow {
  id: string; created_at: Date; actor_type: AuditActorType; actor_id: number | null; actor_name: string; action: AuditAction;
  target_type: string; target_id: number | null; target_name: string; details: Record<string, unknown>; address: string | null;
}

/** Which lines a page reads (ListAuditV1's filter, its user resolved to an id). */
export interface AuditLineFilter {
  actorUserId?: number;
  action?: AuditAction;
  roomId?: number;
  since?: string;
  until?: string;
}

/**
 * The statement of a page: every condition the filter has, with AND; its offset and limit are
 * the two placeholders after `params`. Each condition has its index ending with the id
 * (Invitations1766700000000), so the page is read newest first without a sort. A room's lines
 * are those about the room and those about something in it (their details name the room).
 */
export function auditPageSql(f: AuditLineFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const where: string[] = [];
  const param = (v: unknown) => { params.push(v); return `$${params.length}`; };
  if (f.actorUserId !== undefined) where.push(`actor_type = 'user' AND actor_id = ${param(f.actorUserId)}`);
  if (f.action !== undefined) where.push(`action = ${param(f.action)}`);
  if (f.roomId !== undefined) {
    const room = param(f.roomId);
    where.push(`((target_type = 'room' AND target_id = ${room}::int) OR (details ? 'roomId' AND details->>'roomId' = ${room}::text))`);
  }
  if (f.since !== undefined) where.push(`created_at >= ${param(f.since)}::timestamptz`);
  if (f.until !== undefined) where.push(`created_at < ${param(f.until)}::timestamptz`);
  const sql = `SELECT * FROM audit_log${where.length ? ` WHERE ${where.join(' AND ')}` : ''}
    ORDER BY id DESC OFFSET $${params.length + 1} LIMIT $${params.length + 2}`;
  return { sql, params };
}

/**
 * The audit log's table. `append` is called by a use case with its transaction's manager:
 * the line commits with the change it records, or neither does.
 */
@Injectable()
export class AuditRepository {
  async append(m: EntityManager, actor: Actor | undefined, line: AuditLine): Promise<void> {
    const who = auditActorOf(actor, await this.factsOf(m, actor));
    const target = cleanSubject(line.target);
    await m.query(
      `INSERT INTO audit_log (actor_type, actor_id, actor_name, action, target_type, target_id, target_name, details, address)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [who.type, who.id, who.name.slice(0, 254), line.action, target.type, target.id, target.name,
        JSON.stringify(cleanDetails(line.details ?? {})), (actor?.address ?? line.address)?.slice(0, 64) ?? null],
    );
  }

  /** Newest first, of the lines the filter keeps (all of them without one). */
  async listPage(m: EntityManager, startIndex: number, limit: number, filter: AuditLineFilter = {}): Promise<AuditEntryView[]> {
    const { sql, params } = auditPageSql(filter);
    const rows: AuditRow[] = await m.query(sql, [...params, startIndex, limit]);
    return rows.map((r) => ({
      id: Number(r.id),
      date: r.created_at.toISOString(),
      actor: { type: r.actor_type, id: r.actor_id, name: r.actor_name },
      action: r.action,
      target: { type: r.target_type, id: r.target_id, name: r.target_name },
      details: r.details,
      address: r.address,
    }));
  }

  /**
   * Deletes up to `batch` lines older than `days` days; answers how many. SKIP LOCKED: replicas
   * pruning at once each take other rows instead of waiting on one another's.
   */
  async prune(m: EntityManager, days: number, batch = 5000): Promise<number> {
    const [, count] = await m.query(
      `DELETE FROM audit_log WHERE id IN (
         SELECT id FROM audit_log WHERE created_at < now() - make_interval(days => $1::int) LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [days, batch],
    ) as [unknown, number];
    return count;
  }

  /** Whether the actor administers the group: a group admin user, or the operator's CLI (no token, no user). */
  async mayRead(m: EntityManager, actor: Actor): Promise<boolean> {
    if (actor.userId === undefined) return actor.tokenId === undefined;
    const rows: Array<{ ok: boolean }> = await m.query('SELECT is_group_admin AND NOT is_deleted AS ok FROM users WHERE id = $1', [actor.userId]);
    return rows[0]?.ok === true;
  }

  /** The id of the live user with this e-mail address, if any (a throttled sign-in's target). */
  async userIdByEmail(m: EntityManager, email: string): Promise<number | null> {
    const rows: Array<{ id: number }> = await m.query('SELECT id FROM users WHERE lower(email) = lower($1) AND NOT is_deleted LIMIT 1', [email]);
    return rows[0]?.id ?? null;
  }

  /** A token or add-on installation as a line names it, read before it changes (its name as it was). */
  async subjectOf(m: EntityManager, type: 'token' | 'addon', id: number): Promise<AuditSubject> {
    const sql = type === 'token' ? 'SELECT label AS name FROM api_tokens WHERE id = $1' : 'SELECT name FROM addon_installations WHERE id = $1';
    const rows: Array<{ name: string }> = await m.query(sql, [id]);
    return { type, id, name: rows[0]?.name ?? '' };
  }

  private async factsOf(m: EntityManager, actor: Actor | undefined): Promise<ActorFacts> {
    if (!actor || (actor.userId === undefined && actor.tokenId === undefined)) return {};
    const rows: Array<{ user_name: string | null; token_kind: string | null; token_label: string | null; addon_id: number | null; addon_name: string | null }> = await m.query(
      `SELECT (SELECT name FROM users WHERE id = $1::int) AS user_name, t.kind AS token_kind, t.label AS token_label,
              a.id AS addon_id, a.name AS addon_name
         FROM (VALUES (1)) one
         LEFT JOIN api_tokens t ON t.id = $2::int
         LEFT JOIN addon_installations a ON a.id = t.addon_installation_id`,
      [actor.userId ?? null, actor.tokenId ?? null],
    );
    const r = rows[0];
    return { userName: r?.user_name, tokenKind: r?.token_kind, tokenLabel: r?.token_label, addonId: r?.addon_id, addonName: r?.addon_name };
  }
}
