/**
 * The console's only way to the service: its own public API, same origin, signed in by the
 * session cookie (HttpOnly: this code never sees it). State-changing requests carry the
 * session's CSRF token, which the page keeps in memory only. No API token is ever stored.
 */

export interface SessionUser {
  id: number;
  name: string;
  mention_name: string;
  email: string;
  is_group_admin: boolean;
}

export interface Session {
  user: SessionUser;
  csrf_token: string;
  expires: string;
}

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

let csrfToken: string | null = null;
let onSignedOut: () => void = () => undefined;

/** Called when a request finds the session gone (401): the page shows the sign-in form. */
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

/** The message of an error body (`{error: {message}}`), or the status line. */
export function errorMessage(status: number, body: unknown, statusText = ''): string {
  const error = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  const message = error && typeof error === 'object' ? (error as { message?: unknown }).message : undefined;
  return typeof message === 'string' && message ? message : `${status} ${statusText}`.trim();
}

export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  // A form (a shared file) goes as multipart/form-data, its boundary set by the browser.
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : form ? body : JSON.stringify(body) });
  const text = await res.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!res.ok) {
    if (res.status === 401 && path !== '/v2/session') {
      csrfToken = null;
      onSignedOut();
    }
    throw new ApiError(res.status, errorMessage(res.status, parsed, res.statusText));
  }
  return parsed as T;
}

/** The session the browser holds, or null when it is signed out. */
export async function currentSession(): Promise<Session | null> {
  try {
    const session = await api<Session>('GET', '/v2/session');
    csrfToken = session.csrf_token;
    return session;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

export async function signIn(email: string, password: string): Promise<Session> {
  const session = await api<Session>('POST', '/v2/session', { email, password });
  csrfToken = session.csrf_token;
  return session;
}

/**
 * Chooses the password of an invitation (`#/invitation/{token}`) and signs in as the invited
 * person, as signIn does: the answer is a session's, its CSRF token kept the same way.
 */
export async function acceptInvitation(token: string, password: string): Promise<Session> {
  const session = await api<Session>('POST', `/v2/invitation/${encodeURIComponent(token)}`, { password });
  csrfToken = session.csrf_token;
  return session;
}

export async function signOut(): Promise<void> {
  try {
    await api('DELETE', '/v2/session');
  } finally {
    csrfToken = null;
  }
}

/** Every item of a paged v2 list (`items`, `links.next`), up to `max`. */
export async function allItems<T>(path: string, max = 1000): Promise<T[]> {
  const items: T[] = [];
  let next: string | null = path;
  while (next && items.length < max) {
    const page: { items: T[]; links?: { next?: string } } = await api('GET', next);
    items.push(...page.items);
    // Same origin: follow the path of the absolute link the API gives.
    next = page.links?.next ? new URL(page.links.next, location.href).pathname + new URL(page.links.next, location.href).search : null;
  }
  return items;
}
