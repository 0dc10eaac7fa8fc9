import {
  CreateUserV1, DeleteUserV1, field, GetUserV1, ListUsersV1, UndeleteUserV1, UpdateUserV1,
} from '@app/contracts';
import type { RequestParams } from '../../shared/request-params';
import { toV1User } from '../presenters';
import { flag, userRef, validOptional, validRequired } from '../rules';
import { ADMIN, optional, required, v1Method } from './method';

/**
 * The optional user fields, only those given. `is_group_admin` and `timezone` are checked
 * first, then the others in record order: the order the v1 API always used.
 */
function userFields(p: RequestParams) {
  const isGroupAdmin = p.optional('is_group_admin') === undefined ? undefined : flag(p, 'is_group_admin', false);
  const timezone = validOptional(p, 'timezone', field.timezone, undefined);
  const fields = {
    email: validOptional(p, 'email', field.email, undefined),
    name: validOptional(p, 'name', field.displayName, undefined),
    mentionName: validOptional(p, 'mention_name', field.mentionName, undefined),
    title: validOptional(p, 'title', field.title, undefined),
    isGroupAdmin,
    password: validOptional(p, 'password', field.password, undefined),
    timezone,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<typeof fields>;
}

/** `user_id` alone: the request of the methods that only name a user. */
const userOnly = (p: RequestParams) => ({ user: userRef(p) });

export const USERS_METHODS = {
  'users/create': v1Method({
    doc: { summary: 'Create a user (the password is answered once)', params: { is_group_admin: optional('1 for a group admin'), timezone: optional('Time zone, e.g. Europe/Paris'), email: required('E-mail address'), name: required('Full name'), mention_name: optional('@mention name (default: the name without spaces)'), title: optional('Job title'), password: optional('8 to 128 characters (generated when absent on create)') } },
    verbs: ['POST'],
    kinds: ADMIN,
    command: CreateUserV1,
    request: (p, actor) => {
      const email = validRequired(p, 'email', field.email);
      const name = validRequired(p, 'name', field.displayName);
      return { ...userFields(p), email, name, actor };
    },
    // The password is answered once, here, after the record's fields.
    present: (reply) => ({ user: { ...toV1User(reply.user), password: reply.password } }),
  }),

  'users/delete': v1Method({
    doc: { summary: 'Delete a user', params: { user_id: required('ID or e-mail address of the user') } },
    verbs: ['POST'],
    kinds: ADMIN,
    command: DeleteUserV1,
    request: (p, actor) => ({ actor, ...userOnly(p) }),
    present: () => ({ deleted: true }),
  }),

  'users/list': v1Method({
    doc: { summary: 'List users', params: { include_deleted: optional('1 to include deleted users') } },
    verbs: ['GET'],
    kinds: ADMIN,
    command: ListUsersV1,
    request: (p) => ({ includeDeleted: flag(p, 'include_deleted', false) }),
    present: (reply) => ({ users: reply.users.map((u) => toV1User(u, true)) }),
  }),

  'users/show': v1Method({
    doc: { summary: 'A user', params: { user_id: required('ID or e-mail address of the user') } },
    verbs: ['GET'],
    kinds: ADMIN,
    command: GetUserV1,
    request: userOnly,
    present: (reply) => ({ user: toV1User(reply.user) }),
  }),

  'users/undelete': v1Method({
    doc: { summary: 'Undelete a user', params: { user_id: required('ID or e-mail address of the user') } },
    verbs: ['POST'],
    kinds: ADMIN,
    command: UndeleteUserV1,
    request: userOnly,
    present: () => ({ undeleted: true }),
  }),

  'users/update': v1Method({
    doc: { summary: 'Update a user (absent fields keep their value)', params: { user_id: required('ID or e-mail address of the user'), is_group_admin: optional('1 for a group admin'), timezone: optional('Time zone, e.g. Europe/Paris'), email: optional('E-mail address'), name: optional('Full name'), mention_name: optional('@mention name (default: the name without spaces)'), title: optional('Job title'), password: optional('8 to 128 characters (generated when absent on create)') } },
    verbs: ['POST'],
    kinds: ADMIN,
    command: UpdateUserV1,
    request: (p, actor) => ({ actor, ...userOnly(p), ...userFields(p) }),
    present: (reply) => ({ user: toV1User(reply.user) }),
  }),
};
