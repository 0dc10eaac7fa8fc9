import { promises as dnsPromises, LookupAddress, LookupOptions } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import axios, { AxiosInstance } from 'axios';
import { AddressPolicy, httpsRequiredText } from './address-policy';

/**
 * The one client for HTTP calls to addresses users choose: webhook deliveries, add-on
 * descriptor fetches and install callbacks. axios does the HTTP; this class adds what an
 * SSRF-safe client needs on top: every address is checked at connect time by the agents'
 * `lookup` (the address checked is the address connected to, so a DNS answer that changes
 * between a check and the connect cannot slip through), redirects are answers, not hops,
 * bodies are read to a limit, and one deadline covers the whole exchange. With
 * `plainHttpOnlyWithinAllowedNetworks`, an http: URL may reach the allowed networks only
 * (checked the same way, at connect time): what it carries crosses no one else's network in clear.
 */

export const DEFAULT_OUTBOUND_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;
export const DEFAULT_OUTBOUND_USER_AGENT = 'chat-room-service-webhooks/1';

// An idle pooled socket is closed after this long, and sooner when the receiver's
// `Keep-Alive: timeout=` says so: reusing a socket the receiver has just closed fails the attempt.
const IDLE_SOCKET_MS = 4_000;
/** The TCP keep-alive delay axios's http adapter gives each request's socket. */
const AXIOS_KEEPALIVE_MS = 60_000;

export interface GuardedHttpOptions {
  allowedNetworks?: string[];
  timeoutMs?: number;
  maxResponseBytes?: number;
  userAgent?: string;
  /**
   * Plain http only to addresses inside allowedNetworks; https anywhere the guard allows
   * (add-on calls: an install callback carries the add-on's OAuth secret). Default false.
   */
  plainHttpOnlyWithinAllowedNetworks?: boolean;
  /** Test hook: resolve names differently (default: dns.lookup with all: true). */
  resolve?: (hostname: string) => Promise<Array<{ address: string; family: 4 | 6 }>>;
}

export interface OutboundRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs?: number;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  truncated: boolean;
  durationMs: number;
}

export type OutboundFailureKind = 'refused' | 'timeout' | 'connection' | 'invalid_url';

/** The code of a 'refused' failure for plain http outside the allowed networks (https was required). */
export const HTTPS_REQUIRED = 'ERR_HTTPS_REQUIRED';

/** Why an attempt got no HTTP answer. The message names the host at most, never the URL. */
export class OutboundFailure extends Error {
  constructor(
    readonly kind: OutboundFailureKind,
    message: string,
    readonly durationMs: number,
    /** The system error code behind a 'connection' failure (ECONNREFUSED, ENOTFOUND, ...), or HTTPS_REQUIRED. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'OutboundFailure';
  }
}

/** Raised inside the agents' lookup; found again in the cause chain of axios's error. */
class AddressRefusedError extends Error {
  constructor(message: string, readonly code = 'ERR_OUTBOUND_ADDRESS_REFUSED') {
    super(message);
    this.name = 'AddressRefusedError';
  }
}

type Resolver = NonNullable<GuardedHttpOptions['resolve']>;

const systemResolve: Resolver = async (hostname) => {
  const answers = await dnsPromises.lookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

interface Target {
  url: URL;
  /** host[:port], the most of the URL an error message may show (paths and queries may hold tokens). */
  host: string;
}

export class GuardedHttpClient {
  private readonly policy: AddressPolicy;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly userAgent: string;
  private readonly resolve: Resolver;
  private readonly plainHttpOnlyWithinAllowedNetworks: boolean;
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly axios: AxiosInstance;

  constructor(options: GuardedHttpOptions = {}) {
    this.policy = new AddressPolicy(options.allowedNetworks ?? []);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.userAgent = options.userAgent ?? DEFAULT_OUTBOUND_USER_AGENT;
    this.resolve = options.resolve ?? systemResolve;
    this.plainHttpOnlyWithinAllowedNetworks = options.plainHttpOnlyWithinAllowedNetworks ?? false;

    // keepAliveMsecs as axios sets it on every request's socket (60 s): with the agent's default
    // (1 s) each request switched the socket's TCP keep-alive delay twice, two system calls each.
    const agentOptions = { keepAlive: true, keepAliveMsecs: AXIOS_KEEPALIVE_MS, timeout: IDLE_SOCKET_MS };
    // The http agent serves http: URLs only: its lookup is where plain http is held to the allowed networks.
    this.httpAgent = new http.Agent({ ...agentOptions, lookup: this.lookupFor(this.plainHttpOnlyWithinAllowedNetworks) });
    this.httpsAgent = new https.Agent({ ...agentOptions, lookup: this.lookupFor(false) });
    this.axios = axios.create({
      adapter: 'http',
      httpAgent: this.httpAgent,
      httpsAgent: this.httpsAgent,
      proxy: false, // HTTP(S)_PROXY from the environment would move the connect (and its check) elsewhere
      maxRedirects: 0, // a 3xx is the answer: following it would reach an address nobody registered
      validateStatus: () => true,
      responseType: 'stream', // read by readLimited, never buffered past the limit
      // Send the caller's bytes untouched (axios trims JSON strings, and a signature covers the bytes).
      transformRequest: [(data: unknown) => data],
      transformResponse: [(data: unknown) => data],
    });
  }

  async request(req: OutboundRequest): Promise<OutboundResponse> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const target = parseTarget(req.url, elapsed);
    this.checkLiteral(target, elapsed);

    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    let body: Readable | undefined;
    const deadline = setTimeout(() => {
      timedOut = true;
      controller.abort();
      body?.destroy();
    }, timeoutMs);

    try {
      const res = await this.axios.request<Readable>({
        method: req.method,
        url: target.url.href,
        headers: { 'User-Agent': this.userAgent, ...req.headers },
        data: typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : req.body,
        signal: controller.signal,
      });
      body = res.data;
      const read = await readLimited(res.data, this.maxResponseBytes);
      return {
        status: res.status,
        headers: flattenHeaders(res.headers as Record<string, unknown>),
        body: read.bytes.toString('utf8'),
        truncated: read.truncated,
        durationMs: elapsed(),
      };
    } catch (err) {
      if (timedOut) {
        throw new OutboundFailure('timeout', `${target.host}: no complete answer within ${timeoutMs} ms`, elapsed());
      }
      const refused = findCause(err, (e) => e instanceof AddressRefusedError) as AddressRefusedError | undefined;
      if (refused) throw new OutboundFailure('refused', refused.message, elapsed(), refused.code === HTTPS_REQUIRED ? HTTPS_REQUIRED : undefined);
      const root = rootCause(err);
      const code = findCause(err, (e) => typeof (e as { code?: unknown }).code === 'string') as
        | (Error & { code: string })
        | undefined;
      throw new OutboundFailure(
        'connection',
        `connection to ${target.host} failed: ${describe(root)}`,
        elapsed(),
        code?.code,
      );
    } finally {
      clearTimeout(deadline);
    }
  }

  /**
   * What request() would refuse before sending a byte to `url` (its scheme, its address, the
   * addresses its name resolves to now), or null. For refusing early, before work that a
   * refusal would undo; request() checks again at connect time. A name that does not resolve
   * is left to request() to report.
   */
  async refusalOf(url: string): Promise<OutboundFailure | null> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const target = parseTarget(url, elapsed);
      this.checkLiteral(target, elapsed);
      if (isIP(bareHost(target.url)) === 0) {
        await this.resolveChecked(target.url.hostname, 0, this.plainHttpOnlyWithinAllowedNetworks && target.url.protocol === 'http:');
      }
      return null;
    } catch (err) {
      if (err instanceof OutboundFailure) return err;
      if (err instanceof AddressRefusedError) return new OutboundFailure('refused', err.message, elapsed(), err.code === HTTPS_REQUIRED ? HTTPS_REQUIRED : undefined);
      return null;
    }
  }

  /** Closes pooled connections. Requests after this open new ones. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /**
   * The agents' `lookup`: net.connect calls it for every new connection to a name and connects
   * only to what it returns. Every address of the answer is checked (Happy Eyeballs may try any
   * of them), and one refused address refuses the whole answer.
   */
  private lookupFor(onlyAllowedNetworks: boolean) {
    return (
      hostname: string,
      options: LookupOptions,
      callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
    ): void => this.checkedLookup(hostname, options, callback, onlyAllowedNetworks);
  }

  private checkedLookup(
    hostname: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
    onlyAllowedNetworks: boolean,
  ): void {
    this.resolveChecked(hostname, options.family, onlyAllowedNetworks).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  }

  /**
   * Node connects to an IP literal without calling lookup: its checks are made here instead,
   * the same as the lookup's.
   */
  private checkLiteral(target: Target, elapsed: () => number): void {
    const literal = bareHost(target.url);
    if (isIP(literal) === 0) return;
    const refusal = this.policy.refusal(literal);
    if (refusal) throw new OutboundFailure('refused', refusal, elapsed());
    if (this.plainHttpOnlyWithinAllowedNetworks && target.url.protocol === 'http:' && !this.policy.allows(literal)) {
      throw new OutboundFailure('refused', httpsRequiredText(literal), elapsed(), HTTPS_REQUIRED);
    }
  }

  private async resolveChecked(hostname: string, family: LookupOptions['family'], onlyAllowedNetworks: boolean): Promise<LookupAddress[]> {
    const answers = await this.resolve(hostname);
    for (const answer of answers) {
      const refusal = this.policy.refusal(answer.address);
      if (refusal) throw new AddressRefusedError(`${hostname}: ${refusal}`);
      if (onlyAllowedNetworks && !this.policy.allows(answer.address)) {
        throw new AddressRefusedError(httpsRequiredText(answer.address, hostname), HTTPS_REQUIRED);
      }
    }
    const wanted = family === 4 || family === 'IPv4' ? 4 : family === 6 || family === 'IPv6' ? 6 : 0;
    const usable = answers.filter((a) => wanted === 0 || a.family === wanted);
    if (usable.length === 0) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    }
    return usable.map((a) => ({ address: a.address, family: a.family }));
  }
}

const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

function parseTarget(raw: string, elapsed: () => number): Target {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundFailure('invalid_url', 'not a valid absolute URL', elapsed());
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundFailure('invalid_url', `scheme "${url.protocol}" is not allowed (http and https only)`, elapsed());
  }
  if (url.username !== '' || url.password !== '') {
    throw new OutboundFailure('invalid_url', `credentials in the URL are not allowed (${url.host})`, elapsed());
  }
  if (url.hostname === '') throw new OutboundFailure('invalid_url', 'the URL has no host', elapsed());
  return { url, host: url.host };
}

/** Reads at most `limit` bytes, then destroys the stream (and so its socket) if more were coming. */
function readLimited(stream: Readable, limit: number): Promise<{ bytes: Buffer; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (truncated: boolean) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError);
      // After a cut, destroy() may still surface an error from the pipeline: nobody needs it.
      stream.on('error', () => undefined);
      if (truncated) stream.destroy();
      resolve({ bytes: Buffer.concat(chunks), truncated });
    };
    const onData = (chunk: Buffer) => {
      const room = limit - size;
      if (chunk.length > room) {
        if (room > 0) chunks.push(chunk.subarray(0, room));
        size = limit;
        finish(true);
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    };
    const onEnd = () => finish(false);
    const onError = (err: Error) => {
      stream.off('data', onData).off('end', onEnd);
      reject(err);
    };
    stream.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

function flattenHeaders(headers: Record<string, unknown>): Record<string, string> {
  const source =
    typeof (headers as { toJSON?: unknown }).toJSON === 'function'
      ? (headers as unknown as { toJSON(asStrings?: boolean): Record<string, unknown> }).toJSON()
      : headers;
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || value === null || value === false) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return flat;
}

function findCause(err: unknown, test: (e: Error) => boolean): Error | undefined {
  const seen = new Set<unknown>();
  let current: unknown = err;
  while (current instanceof Error && !seen.has(current)) {
    if (test(current)) return current;
    seen.add(current);
    const nested = (current as { errors?: unknown }).errors; // AggregateError from Happy Eyeballs
    if (Array.isArray(nested)) {
      for (const inner of nested) {
        const found = findCause(inner, test);
        if (found) return found;
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function rootCause(err: unknown): unknown {
  let current = err;
  const seen = new Set<unknown>();
  while (current instanceof Error && (current as { cause?: unknown }).cause instanceof Error && !seen.has(current)) {
    seen.add(current);
    current = (current as { cause?: unknown }).cause;
  }
  return current;
}

/** The low-level reason (Node's messages name addresses, not URLs), kept short. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return 'unknown error';
  let text = err.message;
  const nested = (err as { errors?: unknown }).errors;
  if (!text && Array.isArray(nested)) {
    text = nested.map((e) => (e instanceof Error ? e.message : String(e))).join('; ');
  }
  const code = (err as { code?: unknown }).code;
  if (!text) text = typeof code === 'string' ? code : err.name;
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
