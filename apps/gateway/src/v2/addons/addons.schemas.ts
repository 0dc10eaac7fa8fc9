import { addonField, isId, parseRoomRef, pathId, RoomRef } from '@app/contracts';
import { z } from 'zod';
import { ApiError } from '../../shared/api-error';
import { pageListQuery } from '../http/pagination';
import { optionalField } from '../http/validation';

/** `room`: an id (number or digits) or a name. */
const roomOf = z.union([z.number(), z.string()]).transform((v, ctx): RoomRef => {
  if (typeof v === 'number') {
    if (isId(v)) return { id: v };
  } else if (v.trim() !== '' && v.length <= 100) {
    return parseRoomRef(v.trim());
  }
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be a room id or name (got ${JSON.stringify(v).slice(0, 60)})` });
  return z.NEVER;
});

/** POST /v2/addons: the descriptor's URL, and the room to install into (absent: group-wide). */
export const installAddonBody = z.object({
  url: addonField.descriptorUrl,
  room: optionalField(roomOf, true),
});
export type InstallAddonBody = z.output<typeof installAddonBody>;

export const listAddonsQuery = pageListQuery;
export type ListAddonsQuery = z.output<typeof listAddonsQuery>;

/** `{id}` of /v2/addons/{id}: an installation id; anything else names no installation. */
export function addonIdOf(raw: string): number {
  const id = pathId(raw);
  if (id !== null) return id;
  throw new ApiError(404, `Add-on installation ${raw.slice(0, 40)} not found`);
}

/**
 * POST /v2/oauth/token, JSON or form-encoded. `scope` is a space-separated list (JSON
 * clients may send one scope, or a list); the client may also authenticate in the body.
 */
export const tokenBody = z.object({
  grant_type: z.string().max(100).optional(),
  scope: optionalField(z.union([z.string().max(2000), z.array(z.string().max(100)).max(50)]), true),
  client_id: z.string().max(200).optional(),
  client_secret: z.string().max(200).optional(),
});
export type TokenBody = z.output<typeof tokenBody>;

/** The scopes a token request names: spaces (OAuth) or commas between them. */
export function requestedScopes(scope: TokenBody['scope']): string[] | undefined {
  if (scope === undefined) return undefined;
  const list = (Array.isArray(scope) ? scope : [scope]).flatMap((s) => s.split(/[\s,]+/)).filter(Boolean);
  return list.length > 0 ? list : undefined;
}
