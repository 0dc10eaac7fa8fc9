import { commonShape, ConfigError, env, loadConfigOrExit, METRICS_PORTS, observabilityShape } from '@app/common';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

export const gatewayConfigShape = {
  ...commonShape,
  /**
   * GET /metrics, /health/live and /health/ready on a listener of their own (see README:
   * Metrics and health); METRICS_HOST, not HOST: the public address is not the metrics'.
   */
  ...observabilityShape(METRICS_PORTS.gateway),
  HOST: z.string().default('0.0.0.0'),
  PORT: env.port(8080),
  /** Public base URL of this gateway: used in the documentation links of error messages. */
  PUBLIC_BASE_URL: env.publicBaseUrl('http://127.0.0.1:8080'),
  RATE_LIMIT_MAX: env.positiveInt(100),
  RATE_LIMIT_WINDOW_SECONDS: env.positiveInt(300),
  /** v2: requests per token and window (HipChat: 500 per 5 minutes). */
  V2_RATE_LIMIT_MAX: env.positiveInt(500),
  V2_RATE_LIMIT_WINDOW_SECONDS: env.positiveInt(300),
  /**
   * GET /files per token or console session and window: a budget apart from V2_RATE_LIMIT_*,
   * since a private room's images are fetched again at every showing (private, no-cache) and
   * must not spend what the console's API calls need.
   */
  FILE_RATE_LIMIT_MAX: env.positiveInt(3000),
  FILE_RATE_LIMIT_WINDOW_SECONDS: env.positiveInt(300),
  /** v2 flood control: messages and notifications per room and window (HipChat: 30 a minute). */
  FLOOD_CONTROL_MAX: env.positiveInt(30),
  FLOOD_CONTROL_WINDOW_SECONDS: env.positiveInt(60),
  /** Largest file accepted by share/file; larger ones get 413. */
  FILE_MAX_BYTES: env.positiveInt(10 * 1024 * 1024),
  /** Where shared files are kept (every gateway replica must see the same directory). */
  FILE_STORAGE_DIR: z.string().default('./data/files'),
  /**
   * The key that signs expiring file links (HMAC-SHA256), at least 32 characters, the same
   * on every replica. Unset: a random key kept in FILE_STORAGE_DIR (`.link-key`, made by the
   * first gateway that starts), which every replica shares with the files.
   */
  FILE_LINK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * How long the signed links in room_file_upload events stay valid: longer than the
   * dispatcher's WEBHOOK_RETRY_SCHEDULE in all (its default adds up to 17h 35m), so a retried
   * delivery's link still works.
   */
  FILE_LINK_TTL: env.duration('7d'),
  /** How often a gateway removes the files of deleted rooms from the storage (and once at start). */
  FILE_CLEANUP_INTERVAL: env.duration('1m'),
  /** HTTPS when both are set (PEM files); plain HTTP when neither is. */
  TLS_CERT_FILE: env.optionalFile(),
  TLS_KEY_FILE: env.optionalFile(),
  /** Largest accepted request body; larger ones get 413. */
  BODY_LIMIT_BYTES: env.positiveInt(256 * 1024),
  /** How long to wait for the rooms service to answer a command. */
  COMMAND_TIMEOUT_MS: env.positiveInt(10_000),
  /** Redis holding the rate-limit counters that every gateway replica shares. */
  REDIS_URL: env.url(['redis', 'rediss'], 'redis://127.0.0.1:6379'),
  STARTUP_TIMEOUT_SECONDS: env.positiveInt(5),
  /** Live connections (GET /v2/room/{room}/events): a comment line this often keeps an idle one open through proxies. */
  LIVE_HEARTBEAT_SECONDS: env.positiveInt(15).pipe(z.number().max(3600, 'must be at most 3600 (an hour)')),
  /** Bytes a live connection may leave unread (a client that does not keep up) before it is cut off. */
  LIVE_MAX_PENDING_BYTES: env.positiveInt(1024 * 1024),
  /** How long a console sign-in lasts (the session cookie's Max-Age and the session's expiry). */
  SESSION_TTL: env.duration('14d'),
  /**
   * Console sign-in (POST /v2/session): guesses are counted before the password is checked,
   * a success giving its count back. Per account from one client address, per SIGN_IN_WINDOW:
   * then that address is refused for that account (429) until the window resets.
   */
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS: env.positiveInt(5),
  /** Per client address across accounts, per SIGN_IN_WINDOW. */
  SIGN_IN_MAX_FAILURES_PER_ADDRESS: env.positiveInt(50),
  SIGN_IN_WINDOW: env.duration('15m'),
  /** Per account from every address together, per SIGN_IN_ACCOUNT_WINDOW: many addresses cannot guess fast either. */
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES: env.positiveInt(50),
  SIGN_IN_ACCOUNT_WINDOW: env.duration('1h'),
  /** Replaced (issue 34): five failures from anywhere locked the real user out. Set, it stops the start. */
  SIGN_IN_MAX_FAILURES_PER_ACCOUNT: z.undefined({
    invalid_type_error: 'is no longer read: set SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS (per account from one address, default 5) '
      + 'and SIGN_IN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES (per account from every address, default 50 per SIGN_IN_ACCOUNT_WINDOW, 1h) instead',
  }),
  /**
   * Routes served without a token (POST /v2/oauth/token, POST and DELETE /v2/session, GET
   * /v2/capabilities): requests per client address and window, shared by every replica.
   */
  PUBLIC_RATE_LIMIT_MAX: env.positiveInt(600),
  PUBLIC_RATE_LIMIT_WINDOW_SECONDS: env.positiveInt(300),
  /**
   * Failed token authentications (an unknown, revoked or malformed token, v1 or v2, or an ended
   * session cookie) per client address and window, shared by every replica: past them, that
   * address's requests that present a token are refused (429) before the token is looked up,
   * until the window resets.
   */
  AUTH_FAILURE_RATE_LIMIT_MAX: env.positiveInt(100),
  AUTH_FAILURE_RATE_LIMIT_WINDOW_SECONDS: env.positiveInt(300),
  /**
   * The proxies in front of the gateway (comma-separated addresses or CIDR ranges): from
   * those only, X-Forwarded-For gives the client's address (sign-in throttling, the public
   * routes' rate limit, the unknown tokens' limit; read from the right, the first address that is not a listed proxy) and
   * X-Forwarded-Proto https marks the session cookie Secure. Unset: no header is trusted.
   */
  TRUST_PROXY: z.string().optional().transform((value, ctx) => {
    const entries = (value ?? '').split(',').map((e) => e.trim()).filter(Boolean);
    const wrong = entries.find((e) => !(e.includes('/') ? isCidr(e) : ipaddr.isValid(e)));
    if (wrong !== undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be IP addresses or CIDR ranges, comma-separated (not "${wrong}")` });
      return z.NEVER;
    }
    return entries;
  }),
};

function isCidr(text: string): boolean {
  try {
    ipaddr.parseCIDR(text);
    return true;
  } catch {
    return false;
  }
}

export type GatewayConfig = z.infer<z.ZodObject<typeof gatewayConfigShape>>;

/** Settings that are only wrong together. */
export function gatewayConfigProblems(c: GatewayConfig): string[] {
  if (c.SESSION_TTL < 60_000) return ['SESSION_TTL: must be at least 1m (a session shorter than a minute cannot be used)'];
  if (c.FILE_LINK_TTL < 60_000) return ['FILE_LINK_TTL: must be at least 1m (a webhook receiver must have time to fetch the file; keep it above WEBHOOK_RETRY_SCHEDULE\'s total)'];
  if (c.SIGN_IN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES < c.SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS) {
    return ['SIGN_IN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES: must be at least SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS (else one address alone locks the account out everywhere)'];
  }
  for (const name of ['SIGN_IN_WINDOW', 'SIGN_IN_ACCOUNT_WINDOW'] as const) {
    if (c[name] < 1000) return [`${name}: must be at least 1s`];
  }
  if (Boolean(c.TLS_CERT_FILE) !== Boolean(c.TLS_KEY_FILE)) {
    return [`${c.TLS_CERT_FILE ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE'}: must be set too when ${c.TLS_CERT_FILE ? 'TLS_CERT_FILE' : 'TLS_KEY_FILE'} is set (HTTPS needs a certificate and its key)`];
  }
  return [];
}

export function loadGatewayConfig(e: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const config = loadConfigOrExit('gateway', gatewayConfigShape, e);
  const problems = gatewayConfigProblems(config);
  if (problems.length > 0) {
    process.stderr.write(`gateway: ${new ConfigError(problems).message}\n`);
    process.exit(78); // EX_CONFIG
  }
  return config;
}

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');
