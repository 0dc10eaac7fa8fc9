import { field } from '@app/contracts';
import { z } from 'zod';
import { pageQuery } from '../http/pagination';
import { optionalField, queryFlag, queryInt } from '../http/validation';

/** An optional field that clients also send as null (and, where it means "none", as ""). */
const optional = optionalField;

/**
 * The body of POST /v2/user and PUT /v2/user/{user}: the whole user. An empty `password`
 * is none (one is generated on create, the old one kept on replace). `roles` is the newer
 * spelling of `is_group_admin`: `admin` or `owner` among them makes a group admin.
 */
export const userBody = z.object({
  name: field.displayName,
  email: field.email,
  mention_name: optional(field.mentionName, true),
  title: optional(field.title),
  is_group_admin: optional(field.flag),
  password: optional(field.password, true),
  timezone: optional(field.timezone, true),
  roles: optional(z.array(z.string({ invalid_type_error: 'must be a list of role names' }), { invalid_type_error: 'must be a list of role names' })),
});
export type UserBody = z.output<typeof userBody>;

/** The command fields of a v2 user body (v2 names to the command's). */
export function userFieldsOf(b: UserBody) {
  const adminByRole = b.roles === undefined ? undefined : b.roles.some((r) => r === 'admin' || r === 'owner');
  const fields = {
    name: b.name,
    email: b.email,
    mentionName: b.mention_name,
    title: b.title,
    isGroupAdmin: b.is_group_admin ?? adminByRole,
    password: b.password,
    timezone: b.timezone,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as typeof fields;
}

export const listUsersQuery = z.object({
  ...pageQuery,
  'include-deleted': queryFlag(false),
  'include-guests': queryFlag(false),
});
export type ListUsersQuery = z.output<typeof listUsersQuery>;

export const privateMessageBody = z.object({
  message: field.messageText.pipe(z.string().min(1, 'must not be empty')),
  notify: optional(field.flag),
  message_format: optional(field.messageFormat, true),
});
export type PrivateMessageBody = z.output<typeof privateMessageBody>;

/** Recent private chat history: HipChat's 75 by default. */
export const privateHistoryQuery = z.object({
  'max-results': queryInt(75, 0, 1000),
});
export type PrivateHistoryQuery = z.output<typeof privateHistoryQuery>;
