import { z } from 'zod';
import { defineCommand } from '../define-command';
import { actorSchema, UserRef, userRefSchema } from '../refs';
import { idSchema, startIndexSchema } from '../../rules/ids';
import { instantProblem, instantSchema, LAST_INSTANT } from '../../rules/instant';

/** Who made a change the audit log records: a user, a token of no user, an add-on, or the operator's CLI. */
export const AUDIT_ACTOR_TYPES = ['user', 'token', 'addon', 'cli', 'system'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** What the audit log records (`<aggregate>.<change>`). */
export const AUDIT_ACTIONS = [
  'room.member_added', 'room.member_invited', 'room.member_removed', 'room.owner_changed', 'room.privacy_changed',
  'room.archived', 'room.unarchived', 'room.deleted',
  'user.created', 'user.invited', 'user.invitation_accepted', 'user.promoted', 'user.demoted', 'user.deleted',
  'token.created', 'token.revoked',
  'webhook.created', 'webhook.deleted', 'webhook.enabled', 'webhook.disabled',
  'bridge.created', 'bridge.changed', 'bridge.deleted', 'bridge.inbound_rotated', 'bridge.disabled', 'bridge.enabled',
  'addon.installed', 'addon.uninstalled',
  'session.sign_in_throttled',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What a line is about. `id` null: the target has no id (an e-mail address of a sign-in). */
export interface AuditSubject { type: string; id: number | null; name: string }

/** One line of the audit log, as every reader (v2, console, CLI) gets it: never a secret, URLs without their query. */
export interface AuditEntryView {
  id: number;
  /** ISO-8601. */
  date: string;
  actor: { type: AuditActorType; id: number | null; name: string };
  action: AuditAction;
  target: AuditSubject;
  details: Record<string, unknown>;
  /** The client's address as the gateway saw it; null when the change came from no request (CLI, the service itself). */
  address: string | null;
}

/**
 * Which lines to read, all of them together (AND). `by`: lines whose actor is this user;
 * `roomId`: lines about the room (its target) or about something in it (a webhook, bridge
 * or add-on whose details name the room); `since` inclusive, `until` exclusive (ISO 8601).
 */
export interface AuditFilter {
  by?: UserRef;
  action?: AuditAction;
  roomId?: number;
  since?: string;
  until?: string;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/**
 * `since` or `until` of the audit log as a reader gives it (GET /v2/audit, `cli audit`): an
 * ISO 8601 instant, or a calendar date (UTC) that `since` reads from its first instant and
 * `until` through its last (until is exclusive). Answers the instant in ISO form, or why not.
 */
export function readAuditBound(v: string, edge: 'since' | 'until'): { at: string } | { problem: string } {
  const dateOnly = DATE_ONLY.test(v);
  const problem = instantProblem(dateOnly ? `${v}T00:00:00Z` : v);
  if (problem) return { problem: dateOnly ? `must be a real date (got "${v}")` : `${problem}, or a date such as 2025-03-01` };
  if (!dateOnly) return { at: new Date(v).toISOString() };
  const start = Date.parse(`${v}T00:00:00Z`);
  return { at: new Date(edge === 'since' ? start : Math.min(start + DAY_MS, LAST_INSTANT.getTime())).toISOString() };
}

export const auditFilterSchema: z.ZodType<AuditFilter> = z.object({
  by: userRefSchema.optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  roomId: idSchema.optional(),
  since: instantSchema.optional(),
  until: instantSchema.optional(),
});

/**
 * The audit log, newest first (`GET /v2/audit`, `cli audit`): a group admin's to read (a
 * personal token or session of one), or the operator's (the CLI's actor, of no token).
 * Anyone else is refused (forbidden). Reads `limit` lines from `startIndex` of those the
 * filter keeps (every line without one). A `by` naming no user is `not_found`.
 */
export const ListAuditV1 = defineCommand<{ items: AuditEntryView[] }>('audit.list-audit.v1', z.object({
  actor: actorSchema,
  startIndex: startIndexSchema,
  limit: z.number().int().min(1).max(1001),
  filter: auditFilterSchema.optional(),
}), { query: true });

/**
 * A gateway refused a sign-in for too many failed guesses: recorded in the audit log.
 * `scope`: what was throttled (the account, the client's address). The e-mail address is
 * the one tried (no password, ever).
 */
export const RecordSignInThrottledV1 = defineCommand<Record<string, never>>('audit.record-sign-in-throttled.v1', z.object({
  email: z.string().max(254),
  address: z.string().max(64),
  scope: z.enum(['account_address', 'account', 'address']),
}));
