import { z } from 'zod';
import { idSchema, pathId } from '../rules/ids';
import { text } from '../rules/text';

/** A room named by id or by name, parsed once at the edge. */
export type RoomRef = { id: number } | { name: string };
/** A user named by id, by e-mail address or (v2) by @mention name (kept without the `@`). */
export type UserRef = { id: number } | { email: string } | { mention: string };

/** All digits is an id (room names may not be only digits); anything else a name. */
export function parseRoomRef(raw: string): RoomRef {
  const id = pathId(raw);
  return id !== null ? { id } : { name: raw };
}

/**
 * All digits is an id; anything else an e-mail address. With `mentions` (v2 paths),
 * `@name` is a mention name; v1 never had them, so by default `@name` stays an address.
 */
export function parseUserRef(raw: string): { id: number } | { email: string };
export function parseUserRef(raw: string, opts: { mentions: boolean }): UserRef;
export function parseUserRef(raw: string, opts: { mentions: boolean } = { mentions: false }): UserRef {
  const id = pathId(raw);
  if (id !== null) return { id };
  return opts.mentions && raw.startsWith('@') && raw.length > 1 ? { mention: raw.slice(1) } : { email: raw };
}

export const describeRef = (ref: RoomRef | UserRef): string =>
  'id' in ref ? String(ref.id) : 'name' in ref ? ref.name : 'mention' in ref ? `@${ref.mention}` : ref.email;

export const roomRefSchema: z.ZodType<RoomRef> = z.union([
  z.object({ id: idSchema }).strict(),
  z.object({ name: text().pipe(z.string().min(1).max(100)) }).strict(),
]);
export const userRefSchema: z.ZodType<UserRef> = z.union([
  z.object({ id: idSchema }).strict(),
  z.object({ email: text().pipe(z.string().min(1).max(254)) }).strict(),
  z.object({ mention: text().pipe(z.string().min(1).max(254)) }).strict(),
]);

/** Who asked for a change: recorded as an event's sender. */
export interface Actor {
  /** API token id, when the change came through a token. */
  tokenId?: number;
  /** Label used as `sender` when the change has no user behind it. */
  label: string;
  /** The user acting (v2 personal tokens): the event's sender is then this user. */
  userId?: number;
  /** The one room this actor may act on (v2 room tokens); any other room is refused. */
  roomId?: number;
  /** The client's address as the gateway saw it (req.ip, TRUST_PROXY aware): recorded in the audit log. */
  address?: string;
}
export const actorSchema: z.ZodType<Actor> = z.object({
  tokenId: z.number().int().positive().optional(),
  label: text().pipe(z.string().max(100)),
  userId: idSchema.optional(),
  roomId: idSchema.optional(),
  address: z.string().max(64).optional(),
});
