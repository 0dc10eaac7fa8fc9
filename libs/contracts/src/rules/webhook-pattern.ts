import { RE2JS } from 're2js';
import { charLength } from './text';

/** Longest pattern accepted: a registration's pattern is matched against every message of its room. */
export const WEBHOOK_PATTERN_MAX_LENGTH = 1000;

export interface CompiledPattern {
  source: string;
  /** True when the pattern matches somewhere in the text (a search, not a whole-text match). */
  test(text: string): boolean;
}

/**
 * A webhook's `pattern`, compiled with RE2 semantics (re2js, a linear-time engine: no
 * backtracking, so no pattern can stall the dispatcher whatever the message). Features
 * RE2 does not have (back-references, look-around) are refused with the engine's reason.
 */
export function compileWebhookPattern(source: string): CompiledPattern {
  const re = RE2JS.compile(source);
  return { source, test: (text) => re.matcher(text).find() };
}

/** Why a pattern cannot be registered, or null. */
export function webhookPatternProblem(source: string): string | null {
  if (charLength(source) > WEBHOOK_PATTERN_MAX_LENGTH) return `must be at most ${WEBHOOK_PATTERN_MAX_LENGTH} characters`;
  try {
    compileWebhookPattern(source);
    return null;
  } catch (err) {
    const reason = (err as Error).message.replace(/\s+/g, ' ').slice(0, 200);
    return `must be a regular expression the safe (RE2) engine accepts: ${reason}`;
  }
}
