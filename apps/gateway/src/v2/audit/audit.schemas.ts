import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES, MAX_ID, parseUserRef, readAuditBound } from '@app/contracts';
import { pageQuery, pageSchema } from '../http/pagination';

const subject = z.object({ type: z.string(), id: z.number().int().nullable(), name: z.string() });

/** One line of `GET /v2/audit`, for the OpenAPI document. */
export const auditItemSchema = z.object({
  id: z.number().int(),
  date: z.string().describe('ISO-8601'),
  actor: subject.extend({ type: z.enum(AUDIT_ACTOR_TYPES) }).describe('Who made the change: a user, a token of no user, an add-on, the operator\'s CLI, or the service itself (a webhook disabled for failing, a throttled sign-in)'),
  action: z.enum(AUDIT_ACTIONS),
  target: subject.describe('What was changed (a room, user, token, webhook or add-on), named as it was then'),
  details: z.record(z.unknown()).describe('What changed (never a secret; URLs without their query)'),
  address: z.string().nullable().describe('The client\'s address as the gateway saw it; null when no request made the change'),
});

export const auditListResponse = pageSchema(auditItemSchema);

/** `since` and `until`: an instant, or a date (see readAuditBound). */
const auditBound = (edge: 'since' | 'until') => z.string().optional().transform((v, ctx) => {
  if (v === undefined || v === '') return undefined;
  const read = readAuditBound(v, edge);
  if ('at' in read) return read.at;
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: read.problem });
  return z.NEVER;
});

/** GET /v2/audit: its page, and the filters, all of them together (AND). */
export const auditListQuery = z.object({
  ...pageQuery,
  actor: z.string().optional().transform((v, ctx) => {
    if (v === undefined || v === '') return undefined;
    if (v.length > 254) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a user id, e-mail address or @mention name of at most 254 characters' });
      return z.NEVER;
    }
    return parseUserRef(v, { mentions: true });
  }).describe('Lines of this user\'s doing: a user id, e-mail address or @mention name'),
  action: z.enum(AUDIT_ACTIONS).optional().describe('Lines of this action'),
  room: z.string().optional().transform((v, ctx) => {
    if (v === undefined || v === '') return undefined;
    if (!/^\d{1,10}$/.test(v) || Number(v) < 1 || Number(v) > MAX_ID) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be a room id, a whole number from 1 to ${MAX_ID} (got "${v.slice(0, 50)}")` });
      return z.NEVER;
    }
    return Number(v);
  }).describe('Lines about this room (an id) or about its webhooks, bridges and add-ons'),
  since: auditBound('since').describe('From this instant (ISO 8601), or the start of this date (UTC), inclusive'),
  until: auditBound('until').describe('Before this instant (ISO 8601), or through this date (UTC)'),
}).superRefine((q, ctx) => {
  if (q.since !== undefined && q.until !== undefined && q.since >= q.until) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['until'], message: 'must be after since' });
  }
});
export type AuditListQuery = z.output<typeof auditListQuery>;
