/**
 * Label values that never come from a user: each label takes values from a list we know,
 * else one fixed word, so a client cannot grow a series per request (a room name, a token,
 * an invented HTTP method). OpenTelemetry's rules, in their Prometheus form.
 */

/** The methods OpenTelemetry names (RFC 9110 and PATCH); any other is `_OTHER`. */
export const KNOWN_HTTP_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);

/** What OpenTelemetry calls a value outside the known list. */
export const OTHER = '_OTHER';

/** The route label of a request no route matched (a 404 on an unknown path). */
export const UNMATCHED_ROUTE = 'unmatched';

export function httpMethodLabel(method: string | undefined): string {
  return method !== undefined && KNOWN_HTTP_METHODS.has(method) ? method : OTHER;
}

/** A status code as a label: 100-599, else `_OTHER` (a number keeps the set bounded either way). */
export function statusCodeLabel(status: number): string {
  return Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : OTHER;
}

/** `value` when it is one of `known`, else `_OTHER`. */
export function boundedLabel(value: string | undefined | null, known: ReadonlySet<string> | readonly string[]): string {
  if (value === undefined || value === null) return OTHER;
  const set = known instanceof Set ? known : new Set(known as readonly string[]);
  return set.has(value) ? value : OTHER;
}
