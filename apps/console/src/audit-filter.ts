/**
 * The Audit log page's filters and the `GET /v2/audit` query they make. Dates are the reader's
 * own days: "from" is that day's first instant where they are, "to" includes the whole day (the
 * API's `until` is exclusive, so it is the next day's first instant).
 */
export interface AuditFilter {
  /** A user's id (the people the page lists): lines whose actor is that user. */
  actor: string;
  action: string;
  /** A room's id: lines about the room or about something in it. */
  room: string;
  /** YYYY-MM-DD, as a date field gives it; '' for none. */
  since: string;
  until: string;
}

export const NO_FILTER: AuditFilter = { actor: '', action: '', room: '', since: '', until: '' };

/**
 * The actions the log records (libs/contracts AUDIT_ACTIONS, which carries the API's schema
 * library and so is not bundled here: its spec keeps the two the same), grouped for the picker.
 */
export const AUDIT_ACTION_GROUPS: ReadonlyArray<{ label: string; actions: readonly string[] }> = [
  { label: 'Rooms', actions: ['room.member_added', 'room.member_invited', 'room.member_removed', 'room.owner_changed', 'room.privacy_changed', 'room.archived', 'room.unarchived', 'room.deleted'] },
  { label: 'People', actions: ['user.created', 'user.invited', 'user.invitation_accepted', 'user.promoted', 'user.demoted', 'user.deleted'] },
  { label: 'Tokens', actions: ['token.created', 'token.revoked'] },
  { label: 'Webhooks', actions: ['webhook.created', 'webhook.deleted', 'webhook.enabled', 'webhook.disabled'] },
  { label: 'Bridges', actions: ['bridge.created', 'bridge.changed', 'bridge.deleted', 'bridge.inbound_rotated', 'bridge.disabled', 'bridge.enabled'] },
  { label: 'Add-ons', actions: ['addon.installed', 'addon.uninstalled'] },
  { label: 'Sign-in', actions: ['session.sign_in_throttled'] },
];

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The first instant of a local day (YYYY-MM-DD), `days` later; null for anything else. */
export function startOfDay(day: string, days = 0): Date | null {
  const m = DAY.exec(day);
  if (!m) return null;
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Whether the filter keeps only some lines. */
export const isFiltered = (f: AuditFilter) => Object.values(f).some((v) => v !== '');

/** The path of one page of the log as the filter keeps it. */
export function auditPath(f: AuditFilter, start: number, max: number): string {
  const q = new URLSearchParams({ 'start-index': String(start), 'max-results': String(max) });
  if (f.actor) q.set('actor', f.actor);
  if (f.action) q.set('action', f.action);
  if (f.room) q.set('room', f.room);
  const since = startOfDay(f.since);
  if (since) q.set('since', since.toISOString());
  const until = startOfDay(f.until, 1);
  if (until) q.set('until', until.toISOString());
  return `/v2/audit?${q.toString()}`;
}

/** A filter as kept in the page's history entry (anything else is no filter). */
export function filterOf(value: unknown): AuditFilter {
  const v = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const text = (k: keyof AuditFilter) => (typeof v[k] === 'string' ? (v[k] as string) : '');
  return { actor: text('actor'), action: text('action'), room: text('room'), since: text('since'), until: text('until') };
}

interface NamedRoom { id: number; name: string }

/**
 * The Room picker's choices: the rooms there are, and those the log says were deleted (a
 * room.deleted line names its target as it was then), so that a deleted room's lines can
 * still be found. Deleted ones are marked, and listed once however often a line names them.
 */
export function roomChoices(rooms: readonly NamedRoom[], deletedLines: ReadonlyArray<{ target: { type: string; id: number | null; name: string } }>): NamedRoom[] {
  const seen = new Set(rooms.map((r) => r.id));
  const deleted: NamedRoom[] = [];
  for (const { target } of deletedLines) {
    if (target.type !== 'room' || target.id === null || seen.has(target.id)) continue;
    seen.add(target.id);
    deleted.push({ id: target.id, name: `${target.name} (deleted)` });
  }
  return [...rooms, ...deleted].sort((a, b) => a.name.localeCompare(b.name));
}
