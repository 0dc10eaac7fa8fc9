import type { GetFileAccessV1, ReplyOf } from '@app/contracts';
import { cacheControlFor } from './serving';

/** What FileLinks.check said of the request's `expires` and `signature` ('unsigned': neither given). */
export type LinkCheck = 'unsigned' | 'valid' | 'expired' | 'invalid';

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

/**
 * Whether a stored file is served, and how long it may be kept. A public room's by its link
 * alone; a private room's by a valid signed link, or to credentials that may read the room.
 * Refusals never name the room: 404 when there is no such file (or room) and to credentials
 * that may not read it, 401 without credentials (no, an expired or an altered signature).
 */
export function decideServing(
  access: ReplyOf<typeof GetFileAccessV1>, link: LinkCheck, asker: AskerView, expiresIn: number,
): ServingDecision {
  if (!access.found) return { serve: false, status: 404, message: FILE_NOT_FOUND };
  if (access.privacy === 'public') return { serve: true, cacheControl: cacheControlFor({ privacy: 'public' }) };
  if (link === 'valid') return { serve: true, cacheControl: cacheControlFor({ privacy: 'private', expiresIn }) };
  if (asker.credentials) {
    const may = asker.everyRoom === true || (asker.judged === true && access.mayRead);
    return may ? { serve: true, cacheControl: cacheControlFor({ privacy: 'private' }) } : { serve: false, status: 404, message: FILE_NOT_FOUND };
  }
  const how = 'fetch it with a token (Authorization: Bearer <token> or auth_token=<token>) or a signed-in session';
  return {
    serve: false,
    status: 401,
    message: link === 'expired'
      ? `This file link has expired: ${how}.`
      : `This file ${link === 'invalid' ? 'link is not valid' : 'needs credentials'}: ${how}, or by a signed link that has not expired.`,
  };
}
