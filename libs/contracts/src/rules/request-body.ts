import { z, ZodIssue, ZodTypeAny } from 'zod';
import { field } from './fields';

/**
 * How a JSON body from outside is read, wherever it arrives: a v2 request at the gateway, or
 * a receiver's reply to a webhook at the dispatcher (the same body, read the same way).
 */

const TYPE_WORDS: Record<string, string> = {
  string: 'text', number: 'a number', integer: 'an integer', boolean: 'true or false', object: 'an object', array: 'a list',
};

/** One zod issue as a person reads it: `card.thumbnail.url: must be an http(s) URL`. */
export function describeIssue(issue: ZodIssue, root?: string): string {
  const path = [root, ...issue.path.map(String)].filter(Boolean).join('.');
  let problem = issue.message;
  if (issue.code === 'invalid_type') {
    problem = issue.received === 'undefined' ? 'is required'
      : `must be ${TYPE_WORDS[issue.expected] ?? issue.expected} (got ${issue.received})`;
  } else if (issue.code === 'invalid_enum_value' && issue.message.startsWith('Invalid enum value')) {
    problem = `must be one of ${issue.options.join(', ')}`;
  } else if (issue.code === 'unrecognized_keys') {
    problem = `unknown field ${issue.keys.join(', ')}`;
  }
  return path ? `${path}: ${problem}` : problem;
}

/** An optional body field that clients also send as null (and, where it means "none", as ""). */
export const optionalField = <S extends ZodTypeAny>(schema: S, emptyIsAbsent = false) =>
  z.preprocess((v) => (v === null || (emptyIsAbsent && v === '') ? undefined : v), schema.optional());

/** A boolean as JSON sends it, or as form-encoded bodies do (`true`, `1`, ...). */
export const bodyFlag = z.preprocess((v) => {
  if (typeof v === 'string') {
    const s = v.toLowerCase();
    if (s === 'true' || s === '1') return true;
    if (s === 'false' || s === '0') return false;
  }
  if (v === 1 || v === 0) return v === 1;
  return v;
}, field.flag);
