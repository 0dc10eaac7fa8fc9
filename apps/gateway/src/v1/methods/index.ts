import type { V1Method } from './method';
import { ROOMS_METHODS } from './rooms';
import { USERS_METHODS } from './users';

export type { HttpVerb, V1Method } from './method';
export { servedVerbs } from './method';

/** All thirteen v1 methods, by `<resource>/<method>`. */
export const V1_METHODS: Readonly<Record<string, V1Method<any, any>>> = { ...ROOMS_METHODS, ...USERS_METHODS };

/** The method of a path, never an inherited property (`__proto__/constructor`). */
export function findV1Method(name: string): V1Method<any, any> | undefined {
  return Object.prototype.hasOwnProperty.call(V1_METHODS, name) ? V1_METHODS[name] : undefined;
}
