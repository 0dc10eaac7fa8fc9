import { badRequest } from './errors';

export type RawParams = Record<string, unknown>;

/**
 * The parameters of a v1 request: the query string, overridden by the form body on POST.
 * Clients put parameters in either (node-hipchat sends POST parameters in the query).
 */
export class V1Params {
  private readonly values = new Map<string, string>();

  constructor(query: RawParams, body: RawParams | undefined) {
    for (const source of [query, body ?? {}]) {
      for (const [key, raw] of Object.entries(source)) {
        // A JSON null is an absent value, like an empty one.
        if (raw === undefined || raw === null) continue;
        if (Array.isArray(raw)) {
          const distinct = [...new Set(raw.map(String))];
          if (distinct.length > 1) throw badRequest(`${key}: must be given once`);
          this.values.set(key, distinct[0] ?? '');
        } else if (typeof raw === 'object') {
          throw badRequest(`${key}: must be a plain value`);
        } else {
          this.values.set(key, String(raw));
        }
      }
    }
  }

  /** The value, or undefined when absent or empty (an empty optional value counts as absent). */
  optional(name: string): string | undefined {
    const value = this.values.get(name);
    return value === undefined || value === '' ? undefined : value;
  }

  required(name: string): string {
    const value = this.optional(name);
    if (value === undefined) throw badRequest(`${name}: is required`);
    return value;
  }
}
