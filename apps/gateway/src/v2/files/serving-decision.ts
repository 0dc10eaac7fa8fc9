import type { GetFileAccessV1, ReplyOf } from '@app/contracts';
import { cacheControlFor } from './serving';

/** What FileLinks.check said of the request's `expires`, `issued` and `signature` ('unsigned': none given). */
export type LinkCheck = 'unsigned' | 'valid' | 'expired' | 'invalid';

/** A request's signed link: what FileLinks.check said, when it was issued (null: unknown), and how long it still lives (seconds). */
export interface LinkView {
  check: LinkCheck;
  issuedAt: number | null;
  expiresIn: number;
}

/** Who asked: with credentials or not; `everyRoom` for a v1 admin token; `judged` when the rooms service judged an actor. */
export interface AskerView {
  credentials: boolean;
  everyRoom?: boolean;
  judged?: boolean;
}

export type ServingDecision =
  | { serve: true; cacheControl: string }
  | { serve: false; status: 401 | 404; message: string };

export const FILE_NOT_FOUND = 'File not found.';

const HOW = 'fetch it with a token (Authorization: Bearer <token> or auth_token=<token>) or a signed-in session';

export const LINK_REVOKED = `This file link was revoked: access to its room has changed since it was issued; ${HOW}.`;
export const LINK_UNDATED = `This file link was revoked: it was made before links carried their issue time, so it cannot show it was issued after the last change of access to its room; ${HOW}.`;

/**
 * Whether a private room's signed link was revoked: issued at or before the room's revocation
 * time (in whole seconds, as links are dated: a link issued in the second of a revocation is
 * refused, the safe side), or made before links were dated.
 */
export function linkRevoked(issuedAt: number | null, revokedAt: string | null | undefined): boolean {
  if (issuedAt === null) return true;
  if (!revokedAt) return false;
  return issuedAt <= Math.floor(Date.parse(revokedAt) / 1000);
}

/**
 * Whether a stored file is served, and how long it may be kept. A public room's by its link
 * alone; a private room's by a valid signed link issued after the last time anyone lost access
 * to the room (its `fileLinksRevokedAt`), or to credentials that may read the room now.
 * Refusals never name the room: 404 when there is no such file (or room) and to credentials
 * that may not read it, 401 without credentials (no, an expired, a revoked or an altered signature).
 */
export function decideServing(access: ReplyOf<typeof GetFileAccessV1>, link: LinkView, asker: AskerView): ServingDecision {
  if (!access.found) return { serve: false, status: 404, message: FILE_NOT_FOUND };
  if (access.privacy === 'public') return { serve: true, cacheControl: cacheControlFor({ privacy: 'public' }) };
  const revoked = link.check === 'valid' && linkRevoked(link.issuedAt, access.fileLinksRevokedAt);
  if (link.check === 'valid' && !revoked) return { serve: true, cacheControl: cacheControlFor({ privacy: 'private', expiresIn: link.expiresIn }) };
  // A revoked link with credentials: they are judged, as without a link.
  if (asker.credentials) {
    const may = asker.everyRoom === true || (asker.judged === true && access.mayRead);
    return may ? { serve: true, cacheControl: cacheControlFor({ privacy: 'private' }) } : { serve: false, status: 404, message: FILE_NOT_FOUND };
  }
  if (revoked) return { serve: false, status: 401, message: link.issuedAt === null ? LINK_UNDATED : LINK_REVOKED };
  return {
    serve: false,
    status: 401,
    message: link.check === 'expired'
      ? `This file link has expired: ${HOW}.`
      : `This file ${link.check === 'invalid' ? 'link is not valid' : 'needs credentials'}: ${HOW}, or by a signed link that has not expired.`,
  };
}
