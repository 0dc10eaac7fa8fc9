import { z, ZodTypeAny } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses environment variables with a zod schema whose keys are the variable names.
 * Every problem names its variable, so that a wrong setting is obvious at start-up.
 */
export function parseConfig<S extends Record<string, ZodTypeAny>>(
  shape: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<z.ZodObject<S>> {
  const input: Record<string, string | undefined> = {};
  for (const key of Object.keys(shape)) {
    const raw = env[key];
    input[key] = raw === undefined || raw.trim() === '' ? undefined : raw.trim();
  }
  const result = z.object(shape).safeParse(input);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const variable = issue.path.join('.') || '(environment)';
      const value = input[variable];
      const shown = value === undefined ? 'not set' : `got "${value}"`;
      return `${variable}: ${issue.message} (${shown})`;
    });
    throw new ConfigError(problems);
  }
  return result.data;
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
