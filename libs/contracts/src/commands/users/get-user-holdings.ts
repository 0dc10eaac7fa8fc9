import { z } from 'zod';
import { defineCommand } from '../define-command';
import { actorSchema, userRefSchema } from '../refs';

/**
 * What a user holds that losing access takes away, counted by the rules DeleteUserV1 and
 * a demotion (UpdateUserV1 with isGroupAdmin false) apply, for a console to say before it
 * asks. Live things only: rooms not deleted, tokens and sessions neither revoked nor
 * expired, enabled webhooks and bridges.
 */
export interface UserHoldingsView {
  userId: number;
  isGroupAdmin: boolean;
  /** Rooms whose owner they are. */
  roomsOwned: number;
  /** Private rooms they are a member or the owner of: a deletion takes them out of every one. */
  privateRooms: number;
  /** Live personal API tokens: they stop resolving on deletion. */
  apiTokens: number;
  /** Live console sessions: they end on deletion. */
  sessions: number;
  /** Enabled webhooks they created (bridges apart): all are disabled on deletion. */
  webhooks: number;
  /** Enabled bridges they created: all are disabled on deletion. */
  bridges: number;
  /** What a demotion takes (zero for a user who is not a group admin). */
  ifDemoted: {
    /** Private rooms they see only as a group admin (neither member nor owner). */
    privateRooms: number;
    /** Their webhooks and bridges in those rooms: disabled on demotion (creator_lost_access). */
    webhooks: number;
    bridges: number;
  };
  /** What a deletion does, in plain English sentences (for a confirmation). */
  onDelete: string[];
  /** What a demotion does, likewise (one sentence saying there is nothing to demote for a non-admin). */
  onDemote: string[];
}

/**
 * A user's holdings (`GET /v2/user/{user}/holdings`): for group admins, the operator's CLI,
 * and the user themself; anyone else is refused (forbidden).
 */
export const GetUserHoldingsV1 = defineCommand<{ holdings: UserHoldingsView }>('users.get-user-holdings.v1', z.object({
  actor: actorSchema,
  user: userRefSchema,
}), { query: true });
