import type { AuthenticatedToken } from '@app/contracts';

const TOKEN = Symbol('authenticatedToken');

/** Remembers which token a request authenticated with (for the access log, whichever API). */
export function attachToken(req: object, token: AuthenticatedToken): void {
  (req as { [TOKEN]?: AuthenticatedToken })[TOKEN] = token;
}

export function requestToken(req: object): AuthenticatedToken | undefined {
  return (req as { [TOKEN]?: AuthenticatedToken })[TOKEN];
}
