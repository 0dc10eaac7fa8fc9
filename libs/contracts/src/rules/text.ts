import { z } from 'zod';

/** Length in characters (code points), as a person counts them. */
export const charLength = (s: string): number => [...s].length;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const HTML_TAG = /<\/?[A-Za-z!?][^>]*>/;

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Text that PostgreSQL, JSON and XML can all carry: no NUL and no unpaired UTF-16
 * surrogate. Every string field of every command passes this rule.
 */
export function storableTextProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode text (it contains an unpaired surrogate)';
  return null;
}

/** A string schema with the storable-text rule; `check` adds field rules worded for people. */
export function text(check?: (value: string) => string | null): z.ZodEffects<z.ZodString, string, string> {
  return z.string({ invalid_type_error: 'must be text' }).superRefine((value, ctx) => {
    const problem = storableTextProblem(value) ?? check?.(value) ?? null;
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });
}

export const maxLengthProblem = (value: string, max: number): string | null =>
  charLength(value) > max ? `must be at most ${count(max)} characters (got ${count(charLength(value))})` : null;

export const controlProblem = (value: string): string | null =>
  CONTROL.test(value) ? 'must not contain control characters' : null;

export const htmlProblem = (value: string): string | null => (HTML_TAG.test(value) ? 'must not contain HTML' : null);

/** The first problem of several checks, in order. */
export const firstProblem = (...problems: Array<string | null>): string | null => problems.find((p) => p !== null) ?? null;

export function oneOfProblem(value: string, allowed: readonly string[]): string | null {
  return allowed.includes(value) ? null : `must be one of ${allowed.join(', ')} (got "${value}")`;
}

/**
 * An enum worded like the other rules: `must be one of a, b (got "c")`. A real zod enum, so
 * that documents generated from the schemas (OpenAPI) list the values.
 */
export function oneOf<T extends string>(allowed: readonly [T, ...T[]]): z.ZodType<T, z.ZodTypeDef, unknown> {
  return z.enum(allowed as [T, ...T[]], {
    errorMap: (issue, ctx) => ({
      message: typeof ctx.data !== 'string' ? 'must be text' : oneOfProblem(ctx.data, allowed) ?? ctx.defaultError,
    }),
  }) as unknown as z.ZodType<T, z.ZodTypeDef, unknown>;
}
