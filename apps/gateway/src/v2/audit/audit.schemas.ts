import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES } from '@app/contracts';
import { pageSchema } from '../http/pagination';

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
