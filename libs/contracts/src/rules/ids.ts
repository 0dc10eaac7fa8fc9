import { z } from 'zod';

/**
 * The largest id, and the largest offset into a list: ids are Postgres `integer` columns, so
 * a larger number names nothing and must be refused before it reaches SQL (where it would be
 * an "out of range" error, a 500).
 */
export const MAX_ID = 2_147_483_647;

/** An id in a command: a whole number from 1 to MAX_ID. */
export const idSchema = z.number().int().positive().max(MAX_ID);

/** Where a page starts (`start-index`, `offset`): a whole number from 0 to MAX_ID. */
export const startIndexSchema = z.number().int().min(0).max(MAX_ID);

/** An id given as a JSON number (a body's `owner_user_id`, `room`): MAX_ID bounds it as idSchema does. */
export const isId = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= MAX_ID;

/**
 * A path segment as the id it names, or null when it names none by id: 1 to 10 digits, not
 * all zeros, at most MAX_ID; leading zeros are read (`007` is 7, as HipChat's integer paths
 * read them). One rule for every `{room}`, `{user}` and `{id}` in a path (the token route
 * once refused leading zeros and the others refused ids past nine digits: both are gone).
 * For `{room}` and `{user}` a null means "a name"; for `{id}` of a resource it is a 404.
 */
export function pathId(segment: string): number | null {
  if (!/^\d{1,10}$/.test(segment)) return null;
  const id = Number(segment);
  return id > 0 && id <= MAX_ID ? id : null;
}
