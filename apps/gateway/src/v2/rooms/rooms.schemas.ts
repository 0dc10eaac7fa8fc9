import { field, isId, parseUserRef, problemOf, UserRef } from '@app/contracts';
import { z, ZodTypeAny } from 'zod';
import { pageQuery } from '../http/pagination';
import { bodyFlag, optionalField, queryFlag } from '../http/validation';

/** An optional field that clients also send as null. */
const optional = <S extends ZodTypeAny>(schema: S) => optionalField(schema);

const NOT_A_USER = 'must be a user ID or an e-mail address';

/** `owner_user_id`, `owner.id`: a user's id (number or digits), e-mail address or @mention name. */
export const userIdOrEmail = z.any().transform((v: unknown, ctx): UserRef => {
  if (isId(v)) return { id: v };
  if (typeof v === 'string' && v.trim() !== '') {
    const ref = parseUserRef(v.trim(), { mentions: true });
    if (!('email' in ref) || problemOf(field.email, ref.email) === null) return ref;
  }
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${NOT_A_USER} (got ${JSON.stringify(v)?.slice(0, 60)})` });
  return z.NEVER;
});

/** POST /v2/room. */
export const createRoomBody = z.object({
  name: field.roomName,
  privacy: optional(field.privacy).transform((v) => v ?? 'public'),
  topic: optional(field.topic).transform((v) => v ?? ''),
  /** Absent: the token's user owns the room. */
  owner_user_id: optional(userIdOrEmail),
  guest_access: optional(bodyFlag).transform((v) => v ?? false),
});
export type CreateRoomBody = z.output<typeof createRoomBody>;

/** `owner` of a room update: HipChat's `{id}` (clients may send the whole User object), or the id alone. */
const ownerObject = z.preprocess(
  (v) => (typeof v === 'number' || typeof v === 'string' ? { id: v } : v),
  z.object({ id: optional(userIdOrEmail) }),
);

/**
 * PUT /v2/room/{room}: only the fields given change (HipChat clients send some of them,
 * and fields we don't know, which are dropped).
 */
export const updateRoomBody = z.object({
  name: optional(field.roomName),
  privacy: optional(field.privacy),
  topic: optional(field.topic),
  is_archived: optional(bodyFlag),
  is_guest_accessible: optional(bodyFlag),
  owner: optional(ownerObject),
  owner_user_id: optional(userIdOrEmail),
});
export type UpdateRoomBody = z.output<typeof updateRoomBody>;

/** The command fields of a room update (v2 names to the command's), absent ones left out. */
export function roomUpdateOf(b: UpdateRoomBody) {
  const fields = {
    name: b.name,
    privacy: b.privacy,
    topic: b.topic,
    isArchived: b.is_archived,
    guestAccess: b.is_guest_accessible,
    owner: b.owner?.id ?? b.owner_user_id,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<typeof fields>;
}

/** The names a room update gave the command's fields, where v2's usual name would be wrong. */
export function roomUpdateFieldNames(b: UpdateRoomBody): Record<string, string> {
  return b.owner?.id !== undefined ? { owner: 'owner.id' } : {};
}

/** PUT /v2/room/{room}/topic: an empty topic clears it. */
export const topicBody = z.object({ topic: field.topic });
export type TopicBody = z.output<typeof topicBody>;

/** GET /v2/room. */
export const listRoomsQuery = z.object({
  ...pageQuery,
  'include-private': queryFlag(true),
  'include-archived': queryFlag(false),
  /** HipChat's `expand=items`: each item with the room's topic and times too (what a room list screen shows). */
  expand: z.enum(['items']).optional().describe('`items`: each item also carries topic, created and last_active'),
});
export type ListRoomsQuery = z.output<typeof listRoomsQuery>;

/** The answer of GET /v2/room/{room}/statistics, for the OpenAPI document. */
export const roomStatisticsResponse = z.object({
  messages_sent: z.number().int().describe('Messages posted to the room over its whole history: users\' messages, files and notifications'),
  last_active: z.string().nullable().describe('When the newest of them was posted (ISO 8601), as the room\'s last_active; null when none was'),
  links: z.object({ self: z.string() }),
});
