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
  /** HipChat's `expand=items`: each item as the whole user (what a People screen shows). */
  expand: z.enum(['items']).optional().describe('`items`: each item is the whole user, as GET /v2/user/{user} answers it (a token confined to one room: names only, 403)'),
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

/** The answer of POST /v2/user/{user}/invitation. */
export const invitationResponse = z.object({
  url: z.string().describe('The console\'s page that takes the invitation: `<PUBLIC_BASE_URL>/#/invitation/<secret>`. Shown once: only its hash is kept.'),
  expires: z.string().describe('ISO-8601: 7 days from now'),
  user: z.object({ id: z.number().int(), name: z.string(), email: z.string() }).describe('Who is invited'),
});

/** The body of POST /v2/invitation/{token}: the password the person chooses, by the rule of POST /v2/user's. */
export const acceptInvitationBody = z.object({ password: field.password });
export type AcceptInvitationBody = z.output<typeof acceptInvitationBody>;

const count = (what: string) => z.number().int().min(0).describe(what);

/** The answer of GET /v2/user/{user}/holdings. */
export const holdingsResponse = z.object({
  user_id: z.number().int(),
  is_group_admin: z.boolean(),
  rooms_owned: count('Rooms they own: a deletion leaves them owner until someone else is made owner'),
  private_rooms: count('Private rooms they are a member or the owner of: a deletion takes them out of every one'),
  api_tokens: count('Live personal API tokens: they stop working on deletion'),
  sessions: count('Live console sessions: they end on deletion'),
  webhooks: count('Enabled webhooks they created (bridges apart): disabled on deletion'),
  bridges: count('Enabled bridges they created: disabled on deletion'),
  if_demoted: z.object({
    private_rooms: count('Private rooms they see only as a group admin (neither member nor owner)'),
    webhooks: count('Their webhooks in those rooms: disabled on demotion'),
    bridges: count('Their bridges in those rooms: disabled on demotion'),
  }).describe('What a demotion takes (zeros for a user who is not a group admin)'),
  on_delete: z.array(z.string()).describe('What a deletion does, in sentences'),
  on_demote: z.array(z.string()).describe('What a demotion does, in sentences'),
});
