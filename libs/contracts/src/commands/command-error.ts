/**
 * The error a command handler answers with. The gateway maps `code` to an HTTP status
 * (not_found 404, invalid 400, conflict 400, forbidden 403, unavailable 503).
 */
export type CommandErrorCode = 'not_found' | 'invalid' | 'conflict' | 'forbidden' | 'unavailable';

export interface CommandError {
  code: CommandErrorCode;
  message: string;
  /** The request parameter the error is about, when there is one. */
  param?: string;
}

export function isCommandError(value: unknown): value is CommandError {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'string' && typeof v.message === 'string' &&
    ['not_found', 'invalid', 'conflict', 'forbidden', 'unavailable'].includes(v.code);
}
