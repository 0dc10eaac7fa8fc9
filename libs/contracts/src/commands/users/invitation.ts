import { z } from 'zod';
import { UserView } from '../../models/views';
import { field } from '../../rules/fields';
import { defineCommand } from '../define-command';
import { actorSchema, userRefSchema } from '../refs';
import type { SessionView } from './sign-in';

/** How long an invitation link opens the door: 7 days. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 3600;

/**
 * The web console's page that takes an invitation (`base`: the public base URL). The secret
 * is in the fragment, which no browser sends to any server, nor so to any log.
 */
export const invitationUrl = (base: string, secret: string) => `${base}/#/invitation/${secret}`;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 hash in hex');

/**
 * Invites a live, non-guest user to choose their own password: the caller made the link's
 * secret (at least 128 random bits) and sends only its SHA-256 (`tokenHash`), which is all
 * that is stored. One invitation per user: a new one replaces the last. Answers when it
 * expires (INVITATION_TTL_SECONDS from now). Audit line `user.invited` (never the secret).
 */
export const CreateInvitationV1 = defineCommand<{ user: UserView; expires: string }>('users.create-invitation.v1', z.object({
  /** Who invites: named in the audit log. */
  actor: actorSchema,
  user: userRefSchema,
  tokenHash: sha256Hex,
}));

/**
 * Accepts an invitation: the password is set (the same rule as a new user's), the invitation
 * consumed, the user's other sessions ended, and a session stored under `sessionHash` (as
 * SignInV1 does). An unknown, used or expired invitation, or one whose user was deleted
 * meanwhile, answers `{ session: null }` alike: the caller says one thing for all of them.
 * Audit line `user.invitation_accepted`.
 */
export const AcceptInvitationV1 = defineCommand<{ session: SessionView | null }>('users.accept-invitation.v1', z.object({
  tokenHash: sha256Hex,
  password: field.password,
  sessionHash: sha256Hex,
  ttlSeconds: z.number().int().positive(),
  /** The client's address as the gateway saw it: recorded in the audit line. */
  address: z.string().max(64).optional(),
}));
