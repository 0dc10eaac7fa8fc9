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
 * A path segment as the id it names, or null when it names none by id:
 * 1 to 9 digits, not all zeros; leading zeros are read (`007` is 7). Nine digits because any
 * nine-digit number is below MAX_ID (room names may not be only digits, so a longer one names
 * no room either way).
 * For `{room}` and `{user}` a null means "a name"; for `{id}` of a resource it is a 404.
 */
export function pathId(segment: string): number | null {
  return /^\d{1,9}$/.test(segment) && Number(segment) > 0 ? Number(segment) : null;
}

/**
 * `{id}` of /v2/token/{id}: the id as it is written (no leading zero), up to MAX_ID. Stricter
 * than pathId about zeros and wider about length; kept as the token route has always answered
 * (`DELETE /v2/token/01` revokes nothing) until both are made one rule.
 */
export function canonicalPathId(segment: string): number | null {
  return /^[1-9]\d{0,9}$/.test(segment) && Number(segment) <= MAX_ID ? Number(segment) : null;
}
