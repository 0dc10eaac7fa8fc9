/**
 * Helpers of the gateway's integration tests: raw HTTP calls with full control over where
 * parameters go, and an XML reader that checks well-formedness and the mirror rules.
 */
import { create } from 'xmlbuilder2';
import { expect } from '@jest/globals';
import { readResponse, v1, V1Response } from '../../../test/support/harness';

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

export interface CallOptions {
  /** HTTP verb; default GET. */
  verb?: string;
  query?: Record<string, string | number | Array<string | number>>;
  /** Form body (application/x-www-form-urlencoded). */
  form?: Record<string, string | number>;
  /** Raw body and its content type. */
  body?: string;
  contentType?: string;
}

function search(params: Record<string, string | number | Array<string | number>>): string {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    for (const one of Array.isArray(v) ? v : [v]) s.append(k, String(one));
  }
  return s.toString();
}

/** Calls `${base}/v1/${method}` (or a raw path starting with /). */
export async function call(baseUrl: string, method: string, opts: CallOptions = {}): Promise<V1Response> {
  const path = method.startsWith('/') ? method : `/v1/${method}`;
  const qs = opts.query ? search(opts.query) : '';
  const url = `${baseUrl}${path}${qs ? `?${qs}` : ''}`;
  const init: RequestInit = { method: opts.verb ?? 'GET', headers: {} };
  if (opts.form) {
    init.body = search(opts.form);
    (init.headers as Record<string, string>)['content-type'] = 'application/x-www-form-urlencoded';
  } else if (opts.body !== undefined) {
    init.body = opts.body;
    (init.headers as Record<string, string>)['content-type'] = opts.contentType ?? 'application/x-www-form-urlencoded';
  }
  return readResponse(await fetch(url, init));
}

export { v1 };

/** Singular element names of array items, as the compatibility reference documents them. */
const ITEMS: Record<string, string> = {
  rooms: 'room', users: 'user', messages: 'message', member_user_ids: 'member_user_id', participants: 'participant',
};

interface DomNode { nodeType: number; nodeName: string; textContent: string | null; childNodes: ArrayLike<DomNode> }

function toValue(el: DomNode): unknown {
  const children = Array.from(el.childNodes).filter((n) => n.nodeType === 1);
  if (children.length === 0) return el.textContent ?? '';
  const item = ITEMS[el.nodeName];
  if (item && children.every((c) => c.nodeName === item)) return children.map(toValue);
  const out: Record<string, unknown> = {};
  for (const c of children) {
    if (c.nodeName in out) throw new Error(`<${el.nodeName}> repeats <${c.nodeName}> but is not a list`);
    out[c.nodeName] = toValue(c);
  }
  return out;
}

/**
 * Parses an XML answer (throwing when it is not well-formed or lacks the declaration) into
 * `{root: value}`: lists as arrays, leaves as strings.
 */
export function readXml(text: string): Record<string, unknown> {
  if (!text.startsWith(XML_DECLARATION)) throw new Error(`no XML 1.0 UTF-8 declaration: ${text.slice(0, 80)}`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(text)) throw new Error('XML 1.0 forbids a character in the answer');
  const root = create(text).root().node as unknown as DomNode;
  return { [root.nodeName]: toValue(root) };
}

/** JSON as its XML mirror reads back: numbers and booleans as text, null and [] as ''. */
export function asXmlText(value: unknown): unknown {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.length === 0 ? '' : value.map(asXmlText);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, asXmlText(v)]));
  return String(value);
}

export function expectJson(res: V1Response, status: number): any {
  expect({ status: res.status, body: res.text }).toMatchObject({ status });
  expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
  return res.json;
}

export function expectXml(res: V1Response, status: number): Record<string, unknown> {
  expect({ status: res.status, body: res.text }).toMatchObject({ status });
  expect(res.headers.get('content-type')).toMatch(/^text\/xml\b/);
  return readXml(res.text);
}

/** The v1 error body, in JSON, with code, type and a message matching `message`. */
export function expectError(res: V1Response, status: number, type: string, message?: RegExp | string): string {
  const body = expectJson(res, status);
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'type']);
  expect(body.error.code).toBe(status);
  expect(body.error.type).toBe(type);
  expect(typeof body.error.message).toBe('string');
  if (message !== undefined) expect(body.error.message).toMatch(message);
  return body.error.message;
}

export function expectXmlError(res: V1Response, status: number, type: string, message?: RegExp | string): string {
  const doc = expectXml(res, status) as { error: { code: string; type: string; message: string } };
  expect(Object.keys(doc.error).sort()).toEqual(['code', 'message', 'type']);
  expect(doc.error.code).toBe(String(status));
  expect(doc.error.type).toBe(type);
  if (message !== undefined) expect(doc.error.message).toMatch(message);
  return doc.error.message;
}

export function expectRateLimitHeaders(res: V1Response, limit?: number): void {
  expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
  expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d{10}$/);
  if (limit !== undefined) expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
  const reset = Number(res.headers.get('x-ratelimit-reset'));
  const now = Date.now() / 1000;
  expect(reset).toBeGreaterThan(now - 1);
  expect(reset).toBeLessThanOrEqual(now + 3600);
}

/**
 * A refusal's Retry-After: whole seconds, more than 0, at most the window, and what the count's
 * reset header (`x-ratelimit-reset`, `x-floodcontrol-reset`) implies, give or take a second.
 */
export function expectRetryAfter(res: { headers: Headers }, windowSeconds: number, resetHeader = 'x-ratelimit-reset'): number {
  const text = res.headers.get('retry-after');
  expect(text).toMatch(/^\d+$/);
  const seconds = Number(text);
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(windowSeconds);
  const implied = Number(res.headers.get(resetHeader)) - Date.now() / 1000;
  expect(Math.abs(seconds - implied)).toBeLessThanOrEqual(1);
  return seconds;
}
