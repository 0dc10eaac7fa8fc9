const SECRET_PARAMS = ['auth_token', 'password', 'access_token', 'signed_request'];
const SECRET_PARAM_RE = new RegExp(`([?&](?:${SECRET_PARAMS.join('|')})=)[^&#]*`, 'gi');

/** Replaces secret query parameter values in a URL (or path with query) by `[REDACTED]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAM_RE, '$1[REDACTED]');
}

/** pino `redact` paths for the objects our services log. */
export const REDACT_PATHS = [
  'auth_token',
  '*.auth_token',
  'password',
  '*.password',
  'token',
  '*.token',
  'headers.authorization',
  '*.headers.authorization',
];
