import { storableTextProblem } from '@app/contracts';

/**
 * A parameter the request cannot carry, or one that is missing. API-neutral: each API
 * words it in its own filter (v1: `<param>: <problem>`).
 */
export class ParamProblem extends Error {
  constructor(readonly param: string, readonly problem: string) {
    super(`${param}: ${problem}`);
    this.name = 'ParamProblem';
  }
}

/** `name[]`, `name[0]`, `name[a][b]`: the bracket forms of lists and maps. */
const LIST_NAME = /^([^[\]]+)\[[^\]]*\](?:\[[^\]]*\])*$/;

/** Parameter names are echoed in messages: shown escaped and cut, however the client sent them. */
const NAME_SHOWN_MAX = 100;

function shownName(name: string): string {
  const escaped = JSON.stringify(name).slice(1, -1);
  return escaped.length > NAME_SHOWN_MAX ? `${escaped.slice(0, NAME_SHOWN_MAX)}...` : escaped;
}

/**
 * One value as text: strings as they are, JSON numbers and booleans as their text, null as
 * absent. Arrays are a parameter given several times: accepted when every value is the same.
 * Never `String(object)`: an object's or a nested array's text is not the client's value
 * (and can recurse without bound), so those are refused, without looking inside.
 */
function decodeValue(name: string, raw: unknown): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  if (Array.isArray(raw)) {
    let value: string | undefined;
    for (const item of raw) {
      const one = item === undefined || item === null ? undefined
        : typeof item === 'string' ? item
          : typeof item === 'number' || typeof item === 'boolean' ? String(item)
            : null;
      if (one === null) throw new ParamProblem(shownName(name), 'must be a single value');
      if (one === undefined) continue;
      if (value !== undefined && one !== value) throw new ParamProblem(shownName(name), 'must be given once');
      value = one;
    }
    return value;
  }
  throw new ParamProblem(shownName(name), 'must be a single value');
}

/**
 * The parameters of a request, decoded and checked in one place, before anything reads
 * them (authentication included): the query string, overridden by the body where both
 * have a parameter (clients put parameters in either). Every name and value is text that
 * PostgreSQL, JSON and XML can carry; an empty value counts as absent.
 */
export class RequestParams {
  private constructor(private readonly values: ReadonlyMap<string, string>) {}

  /** `query` and `body` as the HTTP layer parsed them; a body that is not an object has no parameters. */
  static decode(query: unknown, body: unknown): RequestParams {
    const values = new Map<string, string>();
    for (const source of [query, body]) {
      if (source === null || typeof source !== 'object' || Array.isArray(source)) continue;
      for (const [name, raw] of Object.entries(source as Record<string, unknown>)) {
        const nameProblem = storableTextProblem(name);
        if (nameProblem) throw new ParamProblem(shownName(name), `the parameter name ${nameProblem}`);
        // `room_id[]=1` (PHP's and Rails' list syntax, which the HTTP layer leaves as a name):
        // a list where one value is expected, refused as a JSON array is, by the name meant.
        const listOf = LIST_NAME.exec(name);
        if (listOf) throw new ParamProblem(shownName(listOf[1]), 'must be a single value');
        const value = decodeValue(name, raw);
        if (value === undefined) continue;
        const problem = storableTextProblem(value);
        if (problem) throw new ParamProblem(shownName(name), problem);
        values.set(name, value);
      }
    }
    return new RequestParams(values);
  }

  static of(values: Record<string, string>): RequestParams {
    return RequestParams.decode(values, undefined);
  }

  /** The value, or undefined when absent or empty (an empty value counts as absent). */
  optional(name: string): string | undefined {
    const value = this.values.get(name);
    return value === undefined || value === '' ? undefined : value;
  }

  required(name: string): string {
    const value = this.optional(name);
    if (value === undefined) throw new ParamProblem(name, 'is required');
    return value;
  }
}
