import { env } from '@app/common';
import { MAX_ID, type AuditEntryView } from '@app/contracts';
import { DataSource } from 'typeorm';
import { AuditRepository } from '../audit/audit.repository';
import { ListAudit } from '../audit/list-audit/list-audit.usecase';
import { UserRepository } from '../users/user.repository';
import { UsageError } from './options';

export const AUDIT_USAGE = `  cli audit [--limit N] [--start-index N] [--json]               the audit log, newest first (default 50 lines, at most 1000)`;
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

  async list(page: { startIndex: number; limit: number }): Promise<AuditEntryView[]> {
    return (await this.listAudit.execute({ actor: { label: 'cli' }, ...page })).items;
  }
}
