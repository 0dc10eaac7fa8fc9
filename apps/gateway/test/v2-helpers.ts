/**
 * Helpers of the v2 integration tests: a v2 call as clients make it (JSON, Bearer token),
 * and a stack with a group admin and a personal token of theirs, made as the CLI makes them.
 */
import { V2_SCOPES } from '@app/contracts';
import { readResponse, Stack, v1, V1Response } from '../../../test/support/harness';

export interface V2CallOptions {
  token?: string;
  /** JSON body (any value; a string is sent as it is, for malformed bodies). */
  body?: unknown;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  /** Put the token in `auth_token` rather than the Authorization header. */
  tokenInQuery?: boolean;
}

/** Calls `${base}/v2/${path}` as a v2 client does. */
export async function v2(baseUrl: string, verb: string, path: string, opts: V2CallOptions = {}): Promise<V1Response> {
  const url = new URL(`${baseUrl}/v2/${path.replace(/^\/+/, '')}`);
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token !== undefined) {
    if (opts.tokenInQuery) url.searchParams.set('auth_token', opts.token);
    else headers.authorization = `Bearer ${opts.token}`;
  }
  const init: RequestInit = { method: verb, headers };
  if (opts.body !== undefined) {
    init.body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  return readResponse(await fetch(url, init));
}

export interface V2Session {
  /** The group admin's id, e-mail address and personal token (every scope). */
  adminId: number;
  adminEmail: string;
  token: string;
  /** The v1 admin token used to set things up. */
  v1Admin: string;
  /** Creates a user through the v1 API and returns its id. */
  createUser(name: string, email?: string, extra?: Record<string, string>): Promise<number>;
  /** A personal token of this user with these scopes (default: every scope). */
  personalToken(user: number | string, scopes?: string[]): Promise<string>;
}

let counter = 0;

export async function v2Session(stack: Stack): Promise<V2Session> {
  const v1Admin = await stack.createToken('admin', 'v2 setup');
  const createUser = async (name: string, email = `u${Date.now()}${counter++}@example.com`, extra: Record<string, string> = {}) => {
    const res: V1Response = await v1(stack.baseUrl, 'POST', 'users/create', { auth_token: v1Admin, name, email, ...extra });
    if (res.status !== 200) throw new Error(`users/create answered ${res.status}: ${res.text}`);
    return res.json.user.user_id as number;
  };
  const adminEmail = `admin${Date.now()}${counter++}@example.com`;
  const adminId = await createUser('Group Admin', adminEmail, { is_group_admin: '1' });
  const personalToken = (user: number | string, scopes: string[] = [...V2_SCOPES]) =>
    stack.createToken('personal', 'v2 test', { user: String(user), scopes });
  return { adminId, adminEmail, token: await personalToken(adminId), v1Admin, createUser, personalToken };
}
