/** PostgreSQL unique_violation, optionally on a named constraint or index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  const code = e?.code ?? e?.driverError?.code;
  const name = e?.constraint ?? e?.driverError?.constraint;
  return code === '23505' && (!constraint || name === constraint);
}

/**
 * PostgreSQL's transient conflicts, deadlock_detected and serialization_failure: the
 * transaction was rolled back whole, and running it again may well succeed.
 */
export function isTransientConflict(err: unknown): boolean {
  const e = err as { code?: string; driverError?: { code?: string } };
  const code = e?.code ?? e?.driverError?.code;
  return code === '40P01' || code === '40001';
}
