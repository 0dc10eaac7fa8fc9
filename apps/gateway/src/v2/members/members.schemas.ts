import { inviteReason } from '@app/contracts';
import { z } from 'zod';
import { pageListQuery } from '../http/pagination';

/** POST /v2/room/{room}/invite/{user}: the reason is optional, and so is the body. */
export const inviteBody = z.object({ reason: inviteReason.optional() });
export type InviteBody = z.output<typeof inviteBody>;

/** Member and participant lists; `include-offline` is accepted and ignored (everyone listed is online). */
export const userListQuery = pageListQuery;
export type UserListQuery = z.output<typeof userListQuery>;
