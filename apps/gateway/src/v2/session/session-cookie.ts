import { createHmac, timingSafeEqual } from 'node:crypto';

/** The cookie that carries a console session's secret (and nothing else). */
export const SESSION_COOKIE = 'chat_session';

/** The header a cookie-authenticated request that changes state must carry. */
export const CSRF_HEADER = 'x-csrf-token';

/** Methods that change nothing: no CSRF token needed (SameSite=Lax still sends the cookie on top-level GETs). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `chat_session=<secret>; HttpOnly; SameSite=Lax; Path=/; Max-Age=<s>` (+ `; Secure` under TLS). */
export function sessionCookie(secret: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${secret}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie that makes the browser drop the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}

/**
 * The session secret in a Cookie header, or undefined. Only a value that could be a secret
 * we made (letters and digits) is taken: anything else is no session.
 */
export function sessionSecretOf(cookieHeader: string | string[] | undefined): string | undefined {
  const header = Array.isArray(cookieHeader) ? cookieHeader.join('; ') : cookieHeader;
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq === -1 || pair.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = pair.slice(eq + 1).trim();
    if (/^[A-Za-z0-9]{20,200}$/.test(value)) return value;
  }
  return undefined;
}

/**
 * The CSRF token of a session: derived from its secret (HMAC-SHA256), so nothing more is
 * stored, and a page can learn it only from the API (GET /v2/session), which another
 * origin cannot read. Not the stored hash's input alone either: knowing the database's
 * hashes gives no CSRF token.
 */
export function csrfTokenOf(secret: string): string {
  return createHmac('sha256', secret).update('chat-room-service csrf v1').digest('base64url');
}

/** Whether a request with this method must carry the session's CSRF token. */
export function needsCsrfToken(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** Whether `presented` (the X-CSRF-Token header) is the session's CSRF token, compared in constant time. */
export function csrfTokenMatches(secret: string, presented: string | string[] | undefined): boolean {
  if (typeof presented !== 'string') return false;
  const expected = Buffer.from(csrfTokenOf(secret));
  const given = Buffer.from(presented.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Whether the browser reached us over TLS: the public base URL is https (a TLS-terminating
 * proxy the operator declared by it), the gateway serves HTTPS itself, or the request's
 * protocol says https (Fastify reads X-Forwarded-Proto from TRUST_PROXY proxies only).
 */
export function isSecureContext(publicBaseUrl: string, servesTls: boolean, requestProtocol: string | undefined): boolean {
  return publicBaseUrl.startsWith('https:') || servesTls || requestProtocol === 'https';
}
