import { V1User } from '../models';

export const UsersCommandV1 = {
  create: 'users.create.v1',
  delete: 'users.delete.v1',
  list: 'users.list.v1',
  show: 'users.show.v1',
  undelete: 'users.undelete.v1',
  update: 'users.update.v1',
} as const;

export interface UserRefRequestV1 {
  /** User ID or email address. */
  userIdOrEmail: string;
}

export interface UserFieldsV1 {
  email: string;
  name: string;
  mentionName?: string;
  title?: string;
  isGroupAdmin?: boolean;
  password?: string;
  timezone?: string;
}

export type CreateUserRequestV1 = UserFieldsV1;
/** `password` is returned once, on creation. */
export interface CreateUserReplyV1 { user: V1User & { password: string } }

export interface UpdateUserRequestV1 extends UserRefRequestV1, Partial<UserFieldsV1> {}
export interface UserReplyV1 { user: V1User }

export interface ListUsersRequestV1 { includeDeleted: boolean }
export interface ListUsersReplyV1 { users: V1User[] }

export interface DeleteUserReplyV1 { deleted: true }
export interface UndeleteUserReplyV1 { undeleted: true }
