import { readFileSync } from 'node:fs';
import { z, ZodTypeAny } from 'zod';
import { isSecretName, redactCredentials, redactText } from '../logging/redact';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Variables that may be given in a file instead, named by `<NAME>_FILE`. */
const FROM_FILE = new Set(['SECRETS_KEYS']);

/**
 * Parses environment variables with a zod schema whose keys are the variable names.
 * Every problem names its variable, so that a wrong setting is obvious at start-up.
 */
export function parseConfig<S extends Record<string, ZodTypeAny>>(
  shape: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<z.ZodObject<S>> {
  const input: Record<string, string | undefined> = {};
  const fileProblems: string[] = [];
  for (const key of Object.keys(shape)) {
    const raw = env[key] ?? '';
    input[key] = raw.trim() === '' ? undefined : raw.trim();
    // `<NAME>_FILE`: the value in a file (a Docker or Kubernetes secret mounted), for the
    // variables that say so (FROM_FILE); the variable itself wins when both are set.
    const file = env[`${key}_FILE`]?.trim();
    if (input[key] === undefined && file && FROM_FILE.has(key)) {
      try {
        input[key] = readFileSync(file, 'utf8').trim() || undefined;
      } catch (err) {
        fileProblems.push(`${key}_FILE: must name a readable file (${(err as NodeJS.ErrnoException).code ?? 'unreadable'}: ${file})`);
      }
    }
  }
  if (fileProblems.length > 0) throw new ConfigError(fileProblems);
  const result = z.object(shape).safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const variable = issue.path.join('.') || '(environment)';
      return problemText(variable, issue.message, input[variable]);
    });
    throw new ConfigError(problems);
  }
  return result.data;
}

/**
 * `VARIABLE: rule (got "value")`, the value as an operator may see it in a terminal or a
 * collected log: a variable named as a secret (SESSION_SECRET, *_TOKEN, *_PASSWORD...) is
 * never shown, only its rule; any other shows without the password of a URL it holds
 * (`mysql://u:[REDACTED]@h/x`), parsable or not, nor secret query parameters.
 */
export function problemText(variable: string, rule: string, value: string | undefined): string {
  if (value === undefined) return `${variable}: ${rule} (not set)`;
  if (isSecretName(variable)) return `${variable}: ${redactText(rule, [value])} (value not shown)`;
  return `${variable}: ${redactCredentials(rule)} (got "${redactCredentials(value, { bare: true })}")`;
}

/** Same as parseConfig, but prints the problems and stops the process. */
export function loadConfigOrExit<S extends Record<string, ZodTypeAny>>(
  service: string,
  shape: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<z.ZodObject<S>> {
  try {
    return parseConfig(shape, env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${service}: ${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}
