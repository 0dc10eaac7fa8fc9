import {
  controlProblem, field, firstProblem, LIMITS, maxLengthProblem, parseRoomRef, parseUserRef, problemOf, RoomRef, UserRef,
} from '@app/contracts';
import type { z } from 'zod';
import type { RequestParams } from '../shared/request-params';
import { badRequest } from './errors';

/**
 * How v1 reads its parameters. The field rules themselves live in `@app/contracts` (written
 * once, also run by the rooms service and, later, v2); here is only what is v1's own: its
 * parameter names, flags written `0/1/true/false`, IDs as text, and references.
 */

/** The value as the field rule reads it (trimmed, `@` dropped...), or 400 `<param>: <problem>`. */
export function valid<S extends z.ZodTypeAny>(param: string, schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(`${param}: ${problemOf(schema, value)}`);
  return result.data;
}

/** A required parameter through its field rule: 400 `<param>: is required`, or as `valid`. */
export function validRequired<S extends z.ZodTypeAny>(params: RequestParams, param: string, schema: S): z.output<S> {
  return valid(param, schema, params.required(param));
}

/** An optional parameter through its field rule; `fallback` when absent or empty. */
export function validOptional<S extends z.ZodTypeAny, F>(params: RequestParams, param: string, schema: S, fallback: F): z.output<S> | F {
  const value = params.optional(param);
  return value === undefined ? fallback : valid(param, schema, value);
}

/** `0`/`1`/`true`/`false`, case-insensitively; absent gives the default. */
export function flag(params: RequestParams, name: string, fallback: boolean): boolean {
  const value = params.optional(name);
  if (value === undefined) return fallback;
  const v = value.toLowerCase();
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  throw badRequest(`${name}: must be 0, 1, true or false (got "${value}")`);
}

function reference(params: RequestParams, name: string, maxLength: number): string {
  const value = params.required(name);
  const problem = firstProblem(maxLengthProblem(value, maxLength), controlProblem(value));
  if (problem) throw badRequest(`${name}: ${problem}`);
  return value;
}

/** `room_id`: an ID (all digits) or a room name. */
export function roomRef(params: RequestParams): RoomRef {
  return parseRoomRef(reference(params, 'room_id', 100));
}

/** `user_id`: an ID (all digits) or an e-mail address. */
export function userRef(params: RequestParams): UserRef {
  return parseUserRef(reference(params, 'user_id', LIMITS.emailMaxLength));
}

/**
 * `owner_user_id` of rooms/create: an ID (all digits) or an e-mail address, read as `user_id`
 * is. It only ever took IDs, so what is neither (`0`, `bob`) stays a 400 rather than a search.
 */
export function ownerRef(params: RequestParams): UserRef {
  const ref = parseUserRef(reference(params, 'owner_user_id', LIMITS.emailMaxLength));
  if ('email' in ref && problemOf(field.email, ref.email) !== null) {
    throw badRequest(`owner_user_id: must be a user ID or an e-mail address (got "${ref.email}")`);
  }
  return ref;
}
