import { env } from '@app/common';
import { AUDIT_ACTIONS, MAX_ID, parseUserRef, readAuditBound, type AuditAction, type AuditEntryView, type AuditFilter } from '@app/contracts';
import { DataSource } from 'typeorm';
import { AuditRepository } from '../audit/audit.repository';
import { ListAudit } from '../audit/list-audit/list-audit.usecase';
import { UserRepository } from '../users/user.repository';
import { UsageError } from './options';

export const AUDIT_USAGE = `  cli audit [--limit N] [--start-index N] [--json]               the audit log, newest first (default 50 lines, at most 1000)
            [--actor ID|EMAIL|@MENTION] [--action ACTION] [--room ID] [--since WHEN] [--until WHEN]
                                                              only the lines of that user's doing, that action, that room
                                                              (and its webhooks, bridges, add-ons), that period (ISO 8601 or a
                                                              date, UTC; --until exclusive, a date through its end)`;
export const AUDIT_NOTE = `audit reads DATABASE_URL directly, as token does, and works with the services stopped.`;

/** What `cli audit` reads: only the database. */
export const auditCliConfigShape = {
  DATABASE_URL: env.url(['postgres', 'postgresql'], 'postgres://postgres@127.0.0.1:5432/chat'),
};

const LIST_DEFAULT = 50;
const LIST_MAX = 1000;

/** --limit and --start-index as the CLI takes them: whole numbers, said by name when wrong. */
export function auditPage(o: { limit?: string; 'start-index'?: string }): { startIndex: number; limit: number } {
  const whole = (name: string, raw: string | undefined, min: number, max: number, fallback: number) => {
    if (raw === undefined) return fallback;
    if (!/^\d{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > max) throw new UsageError(`--${name}: must be a whole number from ${min} to ${max}`);
    return Number(raw);
  };
  return { limit: whole('limit', o.limit, 1, LIST_MAX, LIST_DEFAULT), startIndex: whole('start-index', o['start-index'], 0, MAX_ID, 0) };
}

/** --actor, --action, --room, --since and --until as the CLI takes them (the rules of GET /v2/audit's), said by name when wrong. */
export function auditFilter(o: { actor?: string; action?: string; room?: string; since?: string; until?: string }): AuditFilter {
  const filter: AuditFilter = {};
  if (o.actor) filter.by = parseUserRef(o.actor, { mentions: true });
  if (o.action !== undefined) {
    if (!(AUDIT_ACTIONS as readonly string[]).includes(o.action)) throw new UsageError(`--action: must be one of ${AUDIT_ACTIONS.join(', ')}`);
    filter.action = o.action as AuditAction;
  }
  if (o.room !== undefined) {
    if (!/^\d{1,10}$/.test(o.room) || Number(o.room) < 1 || Number(o.room) > MAX_ID) throw new UsageError(`--room: must be a room id, a whole number from 1 to ${MAX_ID}`);
    filter.roomId = Number(o.room);
  }
  for (const edge of ['since', 'until'] as const) {
    if (o[edge] === undefined) continue;
    const read = readAuditBound(o[edge]!, edge);
    if ('problem' in read) throw new UsageError(`--${edge}: ${read.problem}`);
    filter[edge] = read.at;
  }
  if (filter.since !== undefined && filter.until !== undefined && filter.since >= filter.until) throw new UsageError('--until: must be after --since');
  return filter;
}

/** Who or what, as one cell: `user 3 Ada`, `cli`, `webhook 7 ci`. */
const subject = (s: { type: string; id: number | null; name: string }) =>
  [s.type, s.id ?? '', s.name === s.type ? '' : s.name].filter((p) => p !== '').join(' ');

/** The lines as a table, as `token list` and `webhook list` print theirs (tab-separated, a header line). */
export function auditTable(items: AuditEntryView[]): string {
  const rows = [['ID', 'DATE', 'ACTOR', 'ACTION', 'TARGET', 'ADDRESS', 'DETAILS']];
  for (const i of items) {
    rows.push([String(i.id), i.date, subject(i.actor), i.action, subject(i.target), i.address ?? '-', Object.keys(i.details).length > 0 ? JSON.stringify(i.details) : '-']);
  }
  return rows.map((r) => `${r.map((c) => c.replace(/[\t\r\n]/g, ' ')).join('\t')}\n`).join('');
}

/** `cli audit`: read in this process, as the operator (the CLI's actor may read the log). */
export class AuditCommands {
  private readonly listAudit: ListAudit;

  constructor(db: DataSource) {
    this.listAudit = new ListAudit(db, new AuditRepository(), new UserRepository());
  }

  async list(page: { startIndex: number; limit: number }, filter: AuditFilter = {}): Promise<AuditEntryView[]> {
    return (await this.listAudit.execute({ actor: { label: 'cli' }, ...page, filter })).items;
  }
}
