/**
 * A deterministic generator of malformed requests, and a sender that puts them on the
 * wire exactly as generated.
 *
 * Design: an API is a list of `OperationDescriptor`s (what a well-formed call looks
 * like: verbs, path, token kinds, a valid parameter set, where parameters travel). A
 * `Mutator` turns a well-formed call (a `Draft`) into a malformed one. Cases are
 * operations × mutators, picked by a seeded PRNG, so a run is reproducible from its seed
 * and a later API version (v2: path parameters, JSON bodies, Bearer tokens) only needs
 * its own descriptors: the mutators work on the draft, not on the v1 specifics.
 *
 * Nothing here depends on the code under test (secret forms included), and nothing new
 * is installed: node:http for ordinary requests, node:net for what node:http refuses to
 * send (control characters in the request line, broken framing).
 */
import http from 'node:http';
import net from 'node:net';
import { deflateSync, gzipSync } from 'node:zlib';

/* ------------------------------------------------------------------------------------ */
/* PRNG                                                                                  */

/** sfc32 seeded through splitmix32: small, fast, good enough for test-case choice. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const split = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = split();
    this.b = split();
    this.c = split();
    this.d = split();
    for (let i = 0; i < 12; i++) this.next();
  }

  /** [0, 1) */
  next(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  weighted<T extends { weight: number }>(items: readonly T[]): T {
    const total = items.reduce((s, i) => s + i.weight, 0);
    let x = this.next() * total;
    for (const item of items) {
      x -= item.weight;
      if (x < 0) return item;
    }
    return items[items.length - 1];
  }

  /** A short identifier: lower-case letters and digits. */
  id(length = 8): string {
    let s = '';
    for (let i = 0; i < length; i++) s += '0123456789abcdefghijklmnopqrstuvwxyz'[this.int(36)];
    return s;
  }
}

/* ------------------------------------------------------------------------------------ */
/* Encoding helpers                                                                      */

/** UTF-8, except that lone surrogates are written as their 3-byte forms (WTF-8): invalid UTF-8. */
export function wtf8(s: string): Buffer {
  if ((s as unknown as { isWellFormed?: () => boolean }).isWellFormed?.() ?? !/[\ud800-\udfff]/.test(s)) return Buffer.from(s, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return Buffer.from(out);
}

const LONE_SURROGATE = /([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/;
const strictEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Percent-encoding of the WTF-8 bytes (so a lone surrogate becomes `%ED%A0%80`). */
export function pct(s: string): string {
  if (!LONE_SURROGATE.test(s)) return strictEncode(s);
  return s.split(LONE_SURROGATE).map((piece, i) => (i % 2 === 0
    ? strictEncode(piece)
    : [...wtf8(piece)].map((b) => `%${b.toString(16).toUpperCase()}`).join(''))).join('');
}

/** Every byte percent-encoded, letters and digits included. */
export function pctAll(s: string, lower = false): string {
  return [...Buffer.from(s, 'utf8')].map((b) => {
    const hex = b.toString(16).padStart(2, '0');
    return `%${lower ? hex : hex.toUpperCase()}`;
  }).join('');
}

/**
 * How a secret may show up in a log: raw, percent-encoded (every byte, either case),
 * JSON `\u`-escaped, base64 / base64url alone, and the base64 characters that depend on
 * the secret alone at each of the three alignments inside a longer base64 message.
 */
export function secretForms(secret: string): Array<{ form: string; text: string }> {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: Array<{ form: string; text: string }> = [
    { form: 'raw', text: secret },
    { form: 'percent-encoded (upper-case hex)', text: pctAll(secret) },
    { form: 'percent-encoded (lower-case hex)', text: pctAll(secret, true) },
    { form: 'JSON \\u escapes', text: [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('') },
    { form: 'base64', text: bytes.toString('base64').replace(/=+$/, '') },
    { form: 'base64url', text: bytes.toString('base64url') },
    { form: 'hex', text: bytes.toString('hex') },
  ];
  for (let offset = 1; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const core = encoded.slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + bytes.length) * 8) / 6));
    forms.push({ form: `base64 at offset ${offset}`, text: core });
    forms.push({ form: `base64url at offset ${offset}`, text: core.replace(/\+/g, '-').replace(/\//g, '_') });
  }
  return forms;
}

/* ------------------------------------------------------------------------------------ */
/* Operations                                                                            */

export interface BadInputContext {
  adminToken: string;
  notifyToken: string;
  /** A room and a user that exist (created through the API before the run). */
  roomId: number;
  roomName: string;
  userId: number;
  userEmail: string;
  /** v2: a personal token with every scope, and a room token of the context's room. */
  personalToken?: string;
  roomToken?: string;
  /** v2: a webhook of the context's room (its id and key) and one of its deliveries (the `webhook-id` a receiver sees). */
  webhookId?: number;
  webhookKey?: string;
  deliveryId?: string;
  /** v2: the key of the inbound URL of a Mattermost bridge of the context's room (no token: the key is the credential). */
  inboundKey?: string;
}

export type TokenKind = 'admin' | 'notification' | 'personal' | 'room';

/** The context's token of a kind. */
export function tokenOf(ctx: BadInputContext, kind: TokenKind): string {
  const token = { admin: ctx.adminToken, notification: ctx.notifyToken, personal: ctx.personalToken, room: ctx.roomToken }[kind];
  if (!token) throw new Error(`the bad-input context has no ${kind} token`);
  return token;
}
/** Where parameters travel in a well-formed call. */
export type Placement = 'query' | 'form' | 'json';

export interface OperationDescriptor {
  /** Shown in summaries, e.g. `v1 rooms/message`. */
  name: string;
  /** HTTP verbs the operation answers (the first is the usual one). */
  verbs: readonly string[];
  /** The request path, without query string (v2 operations put IDs here). */
  path(ctx: BadInputContext, rng: Rng): string;
  /** Token kinds allowed to call it. */
  tokenKinds: readonly TokenKind[];
  /** How a token is presented: v1 `auth_token` parameter; v2 will use `Authorization: Bearer`. */
  auth: 'auth_token' | 'bearer';
  /** Where parameters travel, per verb. */
  placements(verb: string): readonly Placement[];
  /** A valid parameter set (the token excluded). */
  params(ctx: BadInputContext, rng: Rng): Record<string, string>;
  /** Parameters carrying free text: where odd characters travel furthest. */
  textParams: readonly string[];
  /** Share of the random cases (default 1); lower for operations that are costly when they succeed. */
  weight?: number;
}

const v1Placements = (verb: string): readonly Placement[] => (verb === 'GET' ? ['query'] : ['form', 'form', 'query', 'json']);

function v1(name: string, verbs: readonly string[], tokenKinds: readonly TokenKind[], params: OperationDescriptor['params'], textParams: readonly string[]): OperationDescriptor {
  return { name: `v1 ${name}`, verbs, path: () => `/v1/${name}`, tokenKinds, auth: 'auth_token', placements: v1Placements, params, textParams };
}

const ADMIN: readonly TokenKind[] = ['admin'];
const ANY: readonly TokenKind[] = ['admin', 'notification'];
const roomRef = (ctx: BadInputContext, rng: Rng) => (rng.chance(0.5) ? String(ctx.roomId) : ctx.roomName);
const COLORS = ['yellow', 'red', 'green', 'purple', 'gray', 'random'];

/**
 * The thirteen v1 methods. Destructive ones (rooms/delete, users/delete) aim at a room and
 * users that do not exist, so that the room and user of the context survive the run.
 */
export const V1_OPERATIONS: readonly OperationDescriptor[] = [
  v1('rooms/create', ['POST'], ADMIN, (ctx, rng) => ({
    name: `Bad ${rng.id(10)}`, owner_user_id: String(ctx.userId), topic: 'Generated', privacy: rng.pick(['public', 'private']), guest_access: '0',
  }), ['name', 'topic']),
  v1('rooms/delete', ['POST'], ADMIN, (_ctx, rng) => ({ room_id: `victim-${rng.id(6)}` }), ['room_id']),
  v1('rooms/history', ['GET'], ADMIN, (ctx, rng) => ({
    room_id: roomRef(ctx, rng), date: rng.pick(['recent', '2024-02-29']), timezone: rng.pick(['UTC', 'Europe/Paris']),
  }), ['room_id', 'date', 'timezone']),
  v1('rooms/list', ['GET'], ADMIN, () => ({}), []),
  v1('rooms/message', ['POST', 'GET'], ANY, (ctx, rng) => ({
    room_id: roomRef(ctx, rng), from: 'Bot', message: rng.pick(['hello', 'Build <b>42</b> passed', 'ping @nobody']),
    message_format: rng.pick(['text', 'html']), color: rng.pick(COLORS), notify: rng.pick(['0', '1']),
  }), ['message', 'from', 'room_id']),
  v1('rooms/show', ['GET'], ADMIN, (ctx, rng) => ({ room_id: roomRef(ctx, rng) }), ['room_id']),
  v1('rooms/topic', ['POST'], ANY, (ctx, rng) => ({ room_id: roomRef(ctx, rng), topic: `Topic ${rng.id(4)}`, from: 'CI' }), ['topic', 'from', 'room_id']),
  // Half weight: each user it creates costs an scrypt hash of the generated password.
  { ...v1('users/create', ['POST'], ADMIN, (_ctx, rng) => ({
    email: `gen-${rng.id(10)}@example.com`, name: `Gen ${rng.id(4)}`, title: 'Tester', mention_name: `gen${rng.id(8)}`,
  }), ['email', 'name', 'title', 'mention_name', 'password']), weight: 0.5 },
  v1('users/delete', ['POST'], ADMIN, (_ctx, rng) => ({ user_id: `victim-${rng.id(6)}@example.com` }), ['user_id']),
  v1('users/list', ['GET'], ADMIN, (_ctx, rng) => ({ include_deleted: rng.pick(['0', '1']) }), []),
  v1('users/show', ['GET'], ADMIN, (ctx, rng) => ({ user_id: rng.chance(0.7) ? String(ctx.userId) : ctx.userEmail }), ['user_id']),
  v1('users/undelete', ['POST'], ADMIN, (_ctx, rng) => ({ user_id: `victim-${rng.id(6)}@example.com` }), ['user_id']),
  v1('users/update', ['POST'], ADMIN, (ctx, rng) => ({
    user_id: String(ctx.userId), name: `Ada ${rng.id(3)}`, title: rng.pick(['Ops', 'Dev']),
    ...(rng.chance(0.3) ? { email: `ada-${rng.id(8)}@example.com` } : {}),
  }), ['name', 'title', 'email']),
];

const UNKNOWN_PATHS = [
  '/v1/rooms/nope', '/v1/rooms', '/v1/', '/v1', '/v1/rooms/list/extra', '/v2/room', '/v2/room/1/notification',
  '/V1/ROOMS/LIST', '/v1//rooms/list', '/v1/rooms/list/', '/v1/__proto__/constructor', '/v1/rooms/hasOwnProperty',
  '/v1/constructor/prototype', '/v1/rooms/__proto__', '/v1/rooms/toString', '/v1/%2e%2e/rooms/list', '/v1/rooms/..%2Flist',
  '/../../etc/passwd', '/docs/api/auth', '/docs/api/nope', '/health', '/favicon.ico', '/v1/rooms/list%00',
  '/v1/rooms/%E2%9C%93', '/', '/v1/rooms/list%2F..%2F..%2Fusers%2Flist', '/v1/%zz/list', '/v1/rooms/%',
  '/v1/rooms/list.json', '/v1/rooms/list;x=1', '//v1/rooms/list', '/v1/rooms/%ED%A0%80',
];

/** Paths that are not v1 methods: unknown, odd, traversal, prototype names. */
export const UNKNOWN_PATH_OPERATION: OperationDescriptor = {
  name: 'unknown path',
  verbs: ['GET', 'POST'],
  path: (_ctx, rng) => rng.pick(UNKNOWN_PATHS),
  tokenKinds: ADMIN,
  auth: 'auth_token',
  placements: v1Placements,
  params: (ctx) => ({ room_id: ctx.roomName }),
  textParams: ['room_id'],
};

/* ------------------------------------------------------------------------------------ */
/* Drafts and requests                                                                   */

/** One parameter. `raw` overrides the encoding: a whole `name=value` query segment, or a JSON value text. */
export interface Param {
  name: string;
  value: string;
  rawSegment?: string;
  rawJson?: string;
}

/** A request being built: a well-formed call that mutators then break. */
export interface Draft {
  op: OperationDescriptor;
  method: string;
  path: string;
  query: Param[];
  /** Appended after the query as `#...` (sent as is; HTTP clients normally do not). */
  fragment?: string;
  body: { kind: 'none' | 'form' | 'json' | 'multipart'; params: Param[]; raw?: Buffer };
  headers: Record<string, string | string[]>;
  /** Placement of the op's parameters in the well-formed call. */
  placement: Placement;
  /** The token the draft authenticates with (never shown in descriptions). */
  token?: string;
  labels: string[];
  /** Set when the request is malformed at the HTTP level: why a dropped connection is acceptable. */
  httpLevel?: string;
  /** Raw wire bytes instead of node:http (request line and headers, latin1); filled in by `finish`. */
  raw?: { lines: string[]; body: Buffer; omitHost?: boolean };
  /** Which raw-HTTP shape `finish` writes. */
  rawVariant?: string;
}

export interface BadRequest {
  id: number;
  op: string;
  category: string;
  /** Stable, secret-free: `category: what (where)`. */
  description: string;
  method: string;
  /** The request target exactly as sent (one character per byte). */
  path: string;
  headers: Record<string, string | string[]>;
  body: Buffer;
  /**
   * Set when the request is malformed at the HTTP level (request line or framing): Node's
   * parser may refuse it with a 4xx and close the connection, or close it outright, so a
   * connection closed without an answer is acceptable for these, and only these.
   */
  httpLevel?: string;
  raw?: { lines: string[]; body: Buffer; omitHost?: boolean };
}

export interface Mutator {
  name: string;
  weight: number;
  apply(d: Draft, tools: Tools): void;
}

export interface Tools {
  rng: Rng;
  ctx: BadInputContext;
  /** The parameters of the op (query or body, wherever they travel), the token excluded. */
  opParams(): Param[];
  /** A parameter of the op to break: a free-text one when `text`, else any (adds `x` when there is none). */
  target(text?: boolean): Param;
  /** Moves every parameter (the token included) into a JSON body. */
  toJson(): void;
  /** Moves every parameter (the token included) into the query string. */
  toQuery(): void;
  /** Moves every parameter into a form body. */
  toForm(): void;
  /** The auth_token parameter, wherever it is (undefined when the draft has none). */
  tokenParam(): Param | undefined;
}

const paramList = (d: Draft): Param[] => (d.placement === 'query' ? d.query : d.body.params);

function makeTools(d: Draft, rng: Rng, ctx: BadInputContext): Tools {
  const all = () => [...d.query, ...d.body.params];
  const move = (placement: Placement) => {
    const params = all();
    d.query = placement === 'query' ? params : [];
    d.body = placement === 'query' ? { kind: 'none', params: [] } : { kind: placement, params };
    d.placement = placement;
  };
  const tools: Tools = {
    rng,
    ctx,
    opParams: () => all().filter((p) => p.name !== 'auth_token'),
    target(text = false) {
      const candidates = tools.opParams().filter((p) => !text || d.op.textParams.includes(p.name));
      if (candidates.length) return rng.pick(candidates);
      const extra: Param = { name: text && d.op.textParams.length ? rng.pick(d.op.textParams) : 'x', value: 'v' };
      paramList(d).push(extra);
      return extra;
    },
    toJson: () => move('json'),
    toQuery: () => move('query'),
    toForm: () => move('form'),
    tokenParam: () => all().find((p) => p.name === 'auth_token'),
  };
  return tools;
}

/** A well-formed call of `op`, with a token of an allowed kind. */
export function baseDraft(op: OperationDescriptor, ctx: BadInputContext, rng: Rng): Draft {
  const method = rng.chance(0.85) ? op.verbs[0] : rng.pick(op.verbs);
  const placement = rng.pick(op.placements(method));
  const kind = rng.pick(op.tokenKinds);
  const token = tokenOf(ctx, kind);
  const params: Param[] = Object.entries(op.params(ctx, rng)).map(([name, value]) => ({ name, value }));
  // v1's answer format; v2 answers JSON only.
  if (op.auth === 'auth_token' && rng.chance(0.2)) params.push({ name: 'format', value: 'xml' });
  const d: Draft = {
    op, method, path: op.path(ctx, rng), query: [], body: { kind: 'none', params: [] }, headers: {}, placement, token, labels: [],
  };
  if (op.auth === 'auth_token') params.unshift({ name: 'auth_token', value: token });
  else d.headers.authorization = `Bearer ${token}`;
  if (placement === 'query') d.query = params;
  else d.body = { kind: placement, params };
  return d;
}

/* ------------------------------------------------------------------------------------ */
/* Mutators                                                                              */

const CONTROL_CHARS: ReadonlyArray<[string, string]> = [
  ['\u0000', 'NUL'], ['\u0000', 'NUL'], ['\u0000', 'NUL'], ['\u0001', 'U+0001'], ['\u0008', 'BS'], ['\u000b', 'VT'],
  ['\u001b', 'ESC'], ['\u007f', 'DEL'], ['\r\n', 'CRLF'], ['\t', 'TAB'], ['\u0085', 'NEL'], ['\u2028', 'LS'],
  ['\ufeff', 'BOM'], ['\uffff', 'U+FFFF'], ['\ufffe', 'U+FFFE'], ['\u202e', 'RLO'],
];

const LONE_SURROGATES: ReadonlyArray<[string, string]> = [
  ['\ud800', 'high \\ud800'], ['\udfff', 'low \\udfff'], ['a\ud83d', 'trailing high'], ['\udc00\ud800', 'reversed pair'],
  ['\ud83d\ude00', 'valid pair (control)'],
];

const INVALID_ESCAPES = ['%zz', '%', '%E0%A4', '%C0%AF', '%FF', '%ED%A0%80', '%u0041', '%%', '%2', '%0', '%F4%90%80%80', '%C3'];

const STRUCTURED_VALUES = [
  '[]', '[1,2]', '["x","y"]', '{}', '{"toString":1}', '[{"toString":1}]', '{"valueOf":1,"toString":1}', '[null]', 'null',
  'true', 'false', '0', '-0', '1e400', '123456789012345678901234567890', '[[["x"]]]', '{"__proto__":{"x":1}}',
  '{"length":1,"0":"x"}', '[{}]', '[[]]', '["",""]', '{"toString":{"toString":1}}', '[[{"toString":1}]]',
];

const METHODS_ODD = ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND', 'TRACE', 'SEARCH', 'PURGE', 'MKCOL', 'LOCK', 'REPORT', 'QUERY'];

let bomb: Buffer | undefined;
const gzipBomb = () => (bomb ??= gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x61)));

const at = (rng: Rng, value: string, insert: string) => {
  const where = rng.int(3);
  if (where === 0) return insert + value;
  if (where === 1) return value + insert;
  const i = rng.int(value.length + 1);
  return value.slice(0, i) + insert + value.slice(i);
};

const tokenPrefix = (token: string | undefined) => token ?? 'no-token-in-this-draft-0000000000000000';

export const MUTATORS: readonly Mutator[] = [
  {
    name: 'control-char',
    weight: 10,
    apply(d, { rng, target, tokenParam }) {
      const [ch, label] = rng.pick(CONTROL_CHARS);
      const p = rng.chance(0.1) ? tokenParam() ?? target(true) : target(true);
      p.value = at(rng, p.value, ch);
      d.labels.push(`${label} in ${p.name === 'auth_token' ? 'auth_token' : p.name} (${d.placement})`);
    },
  },
  {
    name: 'lone-surrogate',
    weight: 8,
    apply(d, { rng, target, toJson, toForm }) {
      const [s, label] = rng.pick(LONE_SURROGATES);
      const how = rng.pick(['json-escaped', 'json-escaped', 'json-raw-bytes', 'form-wtf8']);
      if (how === 'form-wtf8') toForm();
      else toJson();
      const p = target(true);
      p.value = at(rng, p.value, s);
      // JSON.stringify writes lone surrogates as \ud800 escapes; raw bytes are written as WTF-8.
      if (how === 'json-raw-bytes') p.rawJson = `"${p.value.replace(/["\\]/g, '\\$&').replace(/[\u0000-\u001f]/g, ' ')}"`;
      d.labels.push(`${label} in ${p.name} (${how})`);
    },
  },
  {
    name: 'invalid-escape',
    weight: 7,
    apply(d, { rng, target, toQuery, toForm }) {
      const esc = rng.pick(INVALID_ESCAPES);
      const where = rng.pick(['value', 'value', 'name', 'token-value', 'path']);
      if (where === 'path') {
        d.path = `/${at(rng, d.path.slice(1), esc)}`; // still an origin-form target
        d.labels.push(`${esc} in the path`);
        return;
      }
      if (rng.chance(0.5)) toQuery();
      else toForm();
      const p = where === 'token-value' ? (d.query.concat(d.body.params).find((x) => x.name === 'auth_token') ?? target()) : target(where === 'value');
      p.rawSegment = where === 'name'
        ? `${pct(p.name).slice(0, 2)}${esc}${pct(p.name).slice(2)}=${pct(p.value)}`
        : `${pct(p.name)}=${at(rng, pct(p.value), esc)}`;
      d.labels.push(`${esc} in the ${where === 'name' ? 'name' : 'value'} of ${p.name} (${d.placement})`);
    },
  },
  {
    name: 'structured-scalar',
    weight: 9,
    apply(d, { rng, target, toJson, toQuery, tokenParam }) {
      if (rng.chance(0.2)) {
        // The query-string spellings of arrays and objects.
        toQuery();
        const p = rng.chance(0.4) ? tokenParam() ?? target() : target();
        const style = rng.pick(['[]', '[0][1]', '[a]', 'repeat']);
        if (style === 'repeat') p.rawSegment = `${pct(p.name)}=${pct(p.value)}&${pct(p.name)}=${pct(p.value)}x`;
        else p.rawSegment = `${pct(p.name)}${style === '[0][1]' ? '[0]=' + pct(p.value) + '&' + pct(p.name) + '[1]' : style}=${pct(p.value)}`;
        d.labels.push(`${p.name === 'auth_token' ? 'auth_token' : 'param'}${style === 'repeat' ? ' repeated, different values' : style} in the query`);
        return;
      }
      toJson();
      const onToken = rng.chance(0.35);
      const p = onToken ? tokenParam() ?? target() : target();
      const token = tokenPrefix(d.token);
      const value = rng.pick([
        ...STRUCTURED_VALUES,
        ...(onToken ? [`["${token}"]`, `["${token}","${token}"]`, `[["${token}"]]`, `{"0":"${token}"}`, `["${token}",{"toString":1}]`] : []),
      ]);
      p.rawJson = value;
      d.labels.push(`JSON ${value.split(token).join('T').slice(0, 40)} for ${onToken ? 'auth_token' : p.name}`);
    },
  },
  {
    name: 'deep-nesting',
    weight: 4,
    apply(d, { rng, target, toJson, tokenParam }) {
      const depth = rng.pick([1000, 5000, 20000, 20000]);
      const shape = rng.pick(['balanced-array', 'unbalanced-array', 'objects', 'whole-body', 'query-brackets']);
      if (shape === 'query-brackets') {
        const p = target();
        const n = Math.min(depth, 1500);
        p.rawSegment = `${pct(p.name)}${'[a]'.repeat(n)}=${pct(p.value)}`;
        d.labels.push(`${n} nested [a] on ${p.name} (${d.placement})`);
        return;
      }
      toJson();
      if (shape === 'whole-body') {
        d.body.raw = Buffer.from('['.repeat(depth) + ']'.repeat(rng.chance(0.5) ? depth : 0));
        d.labels.push(`${depth}-deep [ as the whole JSON body`);
        return;
      }
      const onToken = rng.chance(0.4);
      const p = onToken ? tokenParam() ?? target() : target();
      const inner = onToken ? `"${tokenPrefix(d.token)}"` : '"x"';
      p.rawJson = shape === 'objects'
        ? '{"a":'.repeat(depth) + inner + '}'.repeat(depth)
        : '['.repeat(depth) + inner + (shape === 'balanced-array' ? ']'.repeat(depth) : '');
      d.labels.push(`${depth}-deep ${shape} for ${onToken ? 'auth_token' : p.name}`);
    },
  },
  {
    name: 'repeated-param',
    weight: 6,
    apply(d, { rng, target, tokenParam }) {
      const onToken = rng.chance(0.4);
      const p = onToken ? tokenParam() ?? target() : target();
      const times = rng.pick([2, 2, 3, 50, 150]);
      const same = rng.chance(0.5);
      const list = d.placement === 'query' ? d.query : d.body.params;
      if (d.placement === 'json') {
        // Duplicate keys in one JSON object: the last one wins in JSON.parse.
        for (let i = 1; i < times; i++) list.push({ name: p.name, value: same ? p.value : `${p.value}${i}` });
      } else {
        for (let i = 1; i < times; i++) list.push({ name: p.name, value: same ? p.value : `${p.value}${i}` });
      }
      if (rng.chance(0.3) && d.placement !== 'query') {
        // Also in the query string (the body wins in the gateway).
        d.query.push({ name: p.name, value: same ? p.value : `${p.value}-q` });
      }
      d.labels.push(`${onToken ? 'auth_token' : 'param'} ×${times} ${same ? 'same' : 'different'} values (${d.placement})`);
    },
  },
  {
    name: 'auth-spelling',
    weight: 12,
    apply(d, { rng, toQuery, toForm, toJson, tokenParam }) {
      const token = tokenPrefix(d.token);
      const p = tokenParam();
      const spelling = rng.pick([
        '%61uth_token', 'auth%5Ftoken', 'auth%5ftoken', pctAll('auth_token'), 'AUTH_TOKEN', 'Auth_Token', 'auth_token[]',
        'auth_token[0]', 'auth_token%00', 'auth_token%zz', 'auth+token', '%2561uth_token', 'auth_token%5B%5D', 'ａuth_token',
      ]);
      const where = rng.pick(['query', 'query', 'form', 'semicolon', 'fragment', 'encoded-value', 'encoded-equals', 'nested', 'matrix', 'header-bearer', 'header-basic', 'json-and-query', 'value-suffix']);
      const drop = () => {
        if (!p) return;
        for (const list of [d.query, d.body.params]) {
          const i = list.indexOf(p);
          if (i !== -1) list.splice(i, 1);
        }
      };
      switch (where) {
        case 'query':
        case 'form':
          if (where === 'query') toQuery();
          else toForm();
          drop();
          (where === 'query' ? d.query : d.body.params).push({ name: 'auth_token', value: token, rawSegment: `${spelling === 'ａuth_token' ? pct(spelling) : spelling}=${token}` });
          d.labels.push(`name spelled ${spelling} (${where})`);
          break;
        case 'semicolon':
          toQuery();
          drop();
          d.query.push({ name: 'a', value: '1', rawSegment: `a=1;auth_token=${token};b=2` });
          d.labels.push('token after ; in the query');
          break;
        case 'fragment':
          toQuery();
          drop();
          d.fragment = `auth_token=${token}&x=1`;
          d.labels.push('token in the fragment');
          break;
        case 'encoded-value':
          toQuery();
          drop();
          d.query.push({ name: 'auth_token', value: token, rawSegment: `auth_token=${pctAll(token, rng.chance(0.5))}` });
          d.labels.push('token value fully percent-encoded (query)');
          break;
        case 'encoded-equals':
          toQuery();
          drop();
          d.query.push({ name: 'auth_token', value: token, rawSegment: `auth_token%3D${token}` });
          d.labels.push('auth_token%3D<token> (encoded =)');
          break;
        case 'nested':
          toQuery();
          d.query.push({ name: 'next', value: '', rawSegment: `next=%2Fv1%2Frooms%2Flist%3Fauth_token%3D${token}` });
          d.labels.push('token inside an encoded URL parameter');
          break;
        case 'matrix':
          d.path = `${d.path};auth_token=${token}`;
          d.labels.push('token as ;auth_token= path parameter');
          break;
        case 'header-bearer':
          drop();
          d.headers.authorization = `Bearer ${token}`;
          d.labels.push('token in Authorization: Bearer only');
          break;
        case 'header-basic':
          d.headers.authorization = `Basic ${Buffer.from(`${rng.pick(['', 'api', 'x:'])}${token}:`).toString('base64')}`;
          d.labels.push('token in Authorization: Basic too');
          break;
        case 'json-and-query':
          toJson();
          d.query.push({ name: 'auth_token', value: rng.chance(0.5) ? token : 'wrong-token' });
          d.labels.push('token in JSON body and query');
          break;
        case 'value-suffix':
          toQuery();
          if (p) p.rawSegment = `auth_token=${token}${rng.pick(['%00', '%20', '+', '%zz', '%0A', '%E2%80%8B'])}`;
          d.labels.push('token value with a suffix (query)');
          break;
      }
    },
  },
  {
    name: 'encoded-names',
    weight: 4,
    apply(d, { rng, target, toQuery, toForm }) {
      if (rng.chance(0.5)) toQuery();
      else toForm();
      const p = target();
      const spell = rng.pick(['first-letter', 'all', 'upper', 'suffix[]', 'nul', 'plus']);
      const name = spell === 'first-letter' ? `%${p.name.charCodeAt(0).toString(16)}${p.name.slice(1)}`
        : spell === 'all' ? pctAll(p.name)
          : spell === 'upper' ? p.name.toUpperCase()
            : spell === 'suffix[]' ? `${p.name}[]`
              : spell === 'nul' ? `${p.name}%00`
                : p.name.replace('_', '+');
      p.rawSegment = `${name}=${pct(p.value)}`;
      d.labels.push(`${spell} spelling of ${p.name} (${d.placement})`);
    },
  },
  {
    name: 'huge-value',
    weight: 2,
    apply(d, { rng, target, toForm, toJson, toQuery }) {
      const kind = rng.pick(['1MB-message-form', '1MB-json', '300KB-form', '200KB-json', '10K-char', '1MB-query', 'gzip-bomb', '1MB-garbage-body']);
      const p = target(true);
      switch (kind) {
        case '1MB-message-form': toForm(); p.value = 'm'.repeat(1024 * 1024); break;
        case '1MB-json': toJson(); p.value = 'é'.repeat(512 * 1024); break;
        case '300KB-form': toForm(); p.value = 'x'.repeat(300 * 1024); break;
        case '200KB-json': toJson(); p.value = 'y'.repeat(200 * 1024); break;
        case '10K-char': p.value = 'z'.repeat(10_000); break;
        case '1MB-query':
          toQuery();
          p.value = 'q'.repeat(1024 * 1024);
          d.httpLevel = 'request line over Node\'s 16 KB header limit: 431, or the connection closed while sending';
          break;
        case 'gzip-bomb': {
          toForm();
          // Two gzip members: the parameters, then 20 MB of "a" compressed to ~20 KB.
          d.body.raw = Buffer.concat([gzipSync(Buffer.from(`${serialiseQuery(d.body.params)}&pad=`)), gzipBomb()]);
          d.headers['content-encoding'] = 'gzip';
          break;
        }
        case '1MB-garbage-body':
          d.body = { kind: 'form', params: d.body.params, raw: Buffer.alloc(1024 * 1024, 0xff) };
          d.headers['content-type'] = rng.pick(['application/x-www-form-urlencoded', 'application/json', 'application/octet-stream']);
          break;
      }
      d.labels.push(`${kind} in ${p.name}`);
    },
  },
  {
    name: 'json-body',
    weight: 6,
    apply(d, { rng, toJson }) {
      toJson();
      const variant = rng.pick(['plain', 'bom', 'trailing-comma', 'null', 'array', 'string', 'number', 'empty', 'truncated', 'comment', 'NaN', 'single-quotes', 'nul-key', 'proto-keys', 'utf16', 'two-documents']);
      const json = () => `{${d.body.params.map((x) => `${JSON.stringify(x.name)}:${JSON.stringify(x.value)}`).join(',')}}`;
      const raw: Record<string, () => Buffer | undefined> = {
        plain: () => undefined,
        bom: () => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json())]),
        'trailing-comma': () => Buffer.from(json().replace(/}$/, ',}')),
        null: () => Buffer.from('null'),
        array: () => Buffer.from(`[${json()}]`),
        string: () => Buffer.from(JSON.stringify(json())),
        number: () => Buffer.from('42'),
        empty: () => Buffer.alloc(0),
        truncated: () => Buffer.from(json().slice(0, Math.max(1, json().length - 5))),
        comment: () => Buffer.from(`/* c */${json()}`),
        NaN: () => Buffer.from(json().replace(/}$/, ',"notify":NaN}')),
        'single-quotes': () => Buffer.from(json().replace(/"/g, "'")),
        'nul-key': () => Buffer.from(json().replace(/^{/, '{"\\u0000":"x","a\\u0000b":"y",')),
        'proto-keys': () => Buffer.from(json().replace(/^{/, '{"__proto__":{"auth_test":"true"},"constructor":{"prototype":{}},"hasOwnProperty":"x",')),
        utf16: () => {
          d.headers['content-type'] = 'application/json; charset=utf-16';
          return Buffer.from(`\ufeff${json()}`, 'utf16le');
        },
        'two-documents': () => Buffer.from(`${json()}${json()}`),
      };
      d.body.raw = raw[variant]();
      d.labels.push(`${variant} JSON body`);
    },
  },
  {
    name: 'multipart',
    weight: 4,
    apply(d, { rng, toForm }) {
      toForm();
      const boundary = rng.pick(['----b0undary', 'x', '"quoted boundary"', '-'.repeat(70), 'b\u00e9']);
      const variant = rng.pick(['proper', 'no-boundary-param', 'wrong-boundary', 'unterminated', 'file-part', 'huge-part', 'nested']);
      const b = boundary.replace(/"/g, '');
      const parts = d.body.params.map((x) => `--${b}\r\nContent-Disposition: form-data; name="${x.name}"${variant === 'file-part' ? '; filename="../../etc/passwd"\r\nContent-Type: application/octet-stream' : ''}\r\n\r\n${x.value}\r\n`);
      if (variant === 'huge-part') parts.push(`--${b}\r\nContent-Disposition: form-data; name="message"\r\n\r\n${'h'.repeat(600 * 1024)}\r\n`);
      if (variant === 'nested') parts.push(`--${b}\r\nContent-Type: multipart/mixed; boundary=inner\r\n\r\n--inner\r\n\r\nx\r\n--inner--\r\n`);
      const end = variant === 'unterminated' ? '' : `--${variant === 'wrong-boundary' ? 'other' : b}--\r\n`;
      d.body = { kind: 'multipart', params: d.body.params, raw: wtf8(parts.join('') + end) };
      d.headers['content-type'] = variant === 'no-boundary-param' ? 'multipart/form-data' : `multipart/form-data; boundary=${boundary.startsWith('b\u00e9') ? 'b%C3%A9' : boundary}`;
      d.labels.push(`multipart/form-data body, ${variant}`);
    },
  },
  {
    name: 'odd-method',
    weight: 5,
    apply(d, { rng }) {
      const kind = rng.pick(['known', 'known', 'known', 'custom', 'lower-case', 'connect']);
      if (kind === 'known') {
        d.method = rng.pick(METHODS_ODD);
        d.labels.push(`${d.method} method`);
      } else if (kind === 'custom') {
        d.method = rng.pick(['FOO', 'BREW', 'GETS', 'X-CUSTOM']);
        d.httpLevel = 'method unknown to Node\'s HTTP parser: 400 and the connection closed';
        d.labels.push('custom method');
      } else if (kind === 'lower-case') {
        d.method = rng.pick(['get', 'post', 'Get']);
        d.raw = { lines: [], body: Buffer.alloc(0) }; // node:http would upper-case it
        d.httpLevel = 'lower-case method: Node\'s parser refuses it (400) and closes';
        d.labels.push('lower-case method');
      } else {
        d.method = 'CONNECT';
        d.httpLevel = 'CONNECT: Node closes the socket when no connect handler exists';
        d.labels.push('CONNECT method');
      }
    },
  },
  {
    name: 'long-url',
    weight: 3,
    apply(d, { rng, toQuery }) {
      toQuery();
      const size = rng.pick([8 * 1024, 15 * 1024, 16 * 1024, 100 * 1024]);
      const shape = rng.pick(['one-value', 'many-params', 'long-path']);
      if (shape === 'long-path') d.path = `${d.path}/${'p'.repeat(size)}`;
      else if (shape === 'many-params') for (let i = 0; i * 6 < size; i++) d.query.push({ name: `k${i % 1000}`, value: '1' });
      else d.query.push({ name: 'pad', value: 'u'.repeat(size) });
      if (size >= 15 * 1024) d.httpLevel = 'request target at or over Node\'s 16 KB header limit: 431, or the connection closed while sending';
      d.labels.push(`${size / 1024} KB URL (${shape})`);
    },
  },
  {
    name: 'content-type',
    weight: 5,
    apply(d, { rng, toForm, toJson }) {
      const variant = rng.pick([
        'text/plain', 'application/xml', 'json-type-form-body', 'form-type-json-body', 'charset=utf-16', 'charset=utf-7',
        'charset=bogus', 'charset=latin1', 'empty', 'params-garbage', 'upper-case', 'two-content-types', 'no-type-with-body',
      ]);
      const isJson = rng.chance(0.5);
      if (isJson) toJson();
      else toForm();
      const base = isJson ? 'application/json' : 'application/x-www-form-urlencoded';
      switch (variant) {
        case 'json-type-form-body': toForm(); d.headers['content-type'] = 'application/json'; break;
        case 'form-type-json-body': toJson(); d.headers['content-type'] = 'application/x-www-form-urlencoded'; break;
        case 'charset=utf-16':
          d.headers['content-type'] = `${base}; charset=utf-16`;
          d.body.raw = rng.chance(0.5) ? Buffer.from(`\ufeff${serialiseBody(d).toString('utf8')}`, 'utf16le') : serialiseBody(d);
          break;
        case 'charset=latin1':
          d.headers['content-type'] = `${base}; charset=latin1`;
          d.body.raw = Buffer.from(serialiseBody(d).toString('utf8').replace(/Bot|CI/, 'B\u00f6t'), 'latin1');
          break;
        case 'empty': d.headers['content-type'] = ''; break;
        case 'params-garbage': d.headers['content-type'] = `${base};;;=;charset=;boundary`; break;
        case 'upper-case': d.headers['content-type'] = base.toUpperCase() + '; CHARSET=UTF-8'; break;
        case 'two-content-types': d.headers['content-type'] = [base, isJson ? 'application/x-www-form-urlencoded' : 'application/json']; break;
        case 'no-type-with-body': d.headers['content-type'] = '\u0000omit'; break;
        default:
          d.headers['content-type'] = variant.startsWith('charset=') ? `${base}; ${variant}` : variant;
      }
      d.labels.push(`content-type ${variant} (${isJson ? 'json' : 'form'} body)`);
    },
  },
  {
    name: 'content-encoding',
    weight: 4,
    apply(d, { rng, toForm, toJson }) {
      if (rng.chance(0.5)) toForm();
      else toJson();
      const variant = rng.pick(['gzip-garbage', 'gzip-valid', 'gzip-truncated', 'deflate-garbage', 'deflate-valid', 'br-garbage', 'zstd', 'gzip, gzip', 'identity', 'GZIP-upper']);
      const body = serialiseBody(d);
      switch (variant) {
        case 'gzip-garbage': d.headers['content-encoding'] = 'gzip'; d.body.raw = Buffer.from('not gzip at all \u0000\u0001'); break;
        case 'gzip-valid': d.headers['content-encoding'] = 'gzip'; d.body.raw = gzipSync(body); break;
        case 'gzip-truncated': d.headers['content-encoding'] = 'gzip'; d.body.raw = gzipSync(body).subarray(0, 12); break;
        case 'deflate-garbage': d.headers['content-encoding'] = 'deflate'; d.body.raw = Buffer.from([0x78, 0x9c, 0xff, 0xff, 0x00]); break;
        case 'deflate-valid': d.headers['content-encoding'] = 'deflate'; d.body.raw = deflateSync(body); break;
        case 'br-garbage': d.headers['content-encoding'] = 'br'; d.body.raw = Buffer.from([0xce, 0xb2, 0xcf, 0x81]); break;
        case 'zstd': d.headers['content-encoding'] = 'zstd'; d.body.raw = body; break;
        case 'gzip, gzip': d.headers['content-encoding'] = 'gzip, gzip'; d.body.raw = gzipSync(gzipSync(body)); break;
        case 'identity': d.headers['content-encoding'] = 'identity'; break;
        case 'GZIP-upper': d.headers['content-encoding'] = 'GZIP'; d.body.raw = gzipSync(body); break;
      }
      d.labels.push(`content-encoding ${variant} (${d.placement})`);
    },
  },
  {
    name: 'raw-http',
    weight: 3,
    apply(d, { rng }) {
      const variant = rng.pick(['nul-in-target', 'space-in-target', 'utf8-bytes-in-target', 'http-1.0', 'no-host', 'absolute-form', 'bad-chunked', 'cl-and-te', 'header-no-colon', 'obs-fold', 'negative-length', 'http-2.0-line', 'asterisk']);
      d.raw = { lines: [], body: Buffer.alloc(0) };
      const acceptable: Record<string, string | undefined> = {
        'nul-in-target': 'NUL in the request line',
        'space-in-target': 'space in the request target',
        'utf8-bytes-in-target': 'raw non-ASCII bytes in the request target (Node\'s parser answers 400)',
        'http-1.0': undefined,
        'no-host': 'HTTP/1.1 request without Host (Node answers 400)',
        'absolute-form': undefined,
        'bad-chunked': 'invalid chunk size',
        'cl-and-te': 'Content-Length with Transfer-Encoding (smuggling shape; Node answers 400)',
        'header-no-colon': 'header line without a colon',
        'obs-fold': 'obsolete header line folding',
        'negative-length': 'negative Content-Length',
        'http-2.0-line': 'HTTP/2.0 in an HTTP/1 request line',
        asterisk: undefined,
      };
      d.httpLevel = acceptable[variant];
      d.rawVariant = variant;
      d.labels.push(`raw HTTP: ${variant}`);
    },
  },
  {
    name: 'auth-test-and-format',
    weight: 3,
    apply(d, { rng, target }) {
      const list = paramList(d);
      if (rng.chance(0.5)) list.push({ name: 'auth_test', value: rng.pick(['true', 'TRUE', 'yes', '\u0000true', 'true\u0000']) });
      list.push({ name: 'format', value: rng.pick(['xml', 'XML', 'json ', 'yaml', '', 'xml\u0000', '\ud800']) });
      const p = target(true);
      p.value = at(rng, p.value, rng.pick(['\u0000', '\u0001', '\ufffe', '<![CDATA[', ']]>', '&#0;', '\ud800']));
      d.labels.push(`odd auth_test/format with odd ${p.name}`);
    },
  },
  {
    name: 'wrong-token',
    weight: 3,
    apply(d, { rng, ctx, tokenParam }) {
      const p = tokenParam();
      const variant = rng.pick(['other-kind', 'truncated', 'case-changed', 'empty', 'missing', 'padded']);
      if (p) {
        const token = p.value;
        if (variant === 'other-kind') p.value = token === ctx.adminToken ? ctx.notifyToken : ctx.adminToken;
        if (variant === 'truncated') p.value = token.slice(0, -1);
        if (variant === 'case-changed') p.value = token.toUpperCase();
        if (variant === 'empty') p.value = '';
        if (variant === 'padded') p.value = ` ${token} `;
        if (variant === 'missing') {
          for (const list of [d.query, d.body.params]) {
            const i = list.indexOf(p);
            if (i !== -1) list.splice(i, 1);
          }
        }
      } else if (typeof d.headers.authorization === 'string') {
        // v2: the Bearer token in the Authorization header.
        const token = d.headers.authorization.replace(/^Bearer /, '');
        const other = token === ctx.personalToken ? ctx.roomToken ?? ctx.adminToken : ctx.personalToken ?? ctx.adminToken;
        const changed = { 'other-kind': other, truncated: token.slice(0, -1), 'case-changed': token.toUpperCase(), empty: '', padded: ` ${token} `, missing: undefined }[variant];
        if (changed === undefined) delete d.headers.authorization;
        else d.headers.authorization = rng.pick([`Bearer ${changed}`, `bearer ${changed}`, `Basic ${changed}`, changed, `Bearer\t${changed}`]);
      }
      d.labels.push(`${variant} token`);
    },
  },
];

/* ------------------------------------------------------------------------------------ */
/* Serialisation                                                                         */

function serialiseQuery(params: Param[]): string {
  return params.map((p) => p.rawSegment ?? `${pct(p.name)}=${pct(p.value)}`).join('&');
}

function serialiseBody(d: Draft): Buffer {
  if (d.body.raw) return d.body.raw;
  switch (d.body.kind) {
    case 'none': return Buffer.alloc(0);
    case 'form': return Buffer.from(serialiseQuery(d.body.params), 'latin1');
    case 'json': return wtf8(`{${d.body.params.map((p) => `${JSON.stringify(p.name)}:${p.rawJson ?? JSON.stringify(p.value)}`).join(',')}}`);
    case 'multipart': return Buffer.alloc(0);
  }
}

const CONTENT_TYPES: Record<string, string> = {
  form: 'application/x-www-form-urlencoded',
  json: 'application/json',
};

function finish(d: Draft, id: number, category: string): BadRequest {
  const body = serialiseBody(d);
  const headers: Record<string, string | string[]> = { ...d.headers };
  if (headers['content-type'] === undefined && body.length && CONTENT_TYPES[d.body.kind]) headers['content-type'] = CONTENT_TYPES[d.body.kind];
  if (headers['content-type'] === '\u0000omit') delete headers['content-type'];
  const query = serialiseQuery(d.query);
  let target = d.path + (query ? `?${query}` : '') + (d.fragment !== undefined ? `#${d.fragment}` : '');
  let raw = d.raw;
  const rawVariant = d.rawVariant;
  if (raw) {
    const lines: string[] = [];
    let rawBody = body;
    let omitHost = false;
    const hdrs = () => Object.entries(headers).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${k}: ${x}`));
    const length = () => [`Content-Length: ${rawBody.length}`];
    switch (rawVariant) {
      case 'nul-in-target': lines.push(`${d.method} ${target}\u0000x HTTP/1.1`, ...hdrs(), ...length()); break;
      case 'space-in-target': lines.push(`${d.method} ${target.replace('?', '? ')} HTTP/1.1`, ...hdrs(), ...length()); break;
      case 'utf8-bytes-in-target': lines.push(`${d.method} ${Buffer.from(`${target}&x=caf\u00e9\u2713`, 'utf8').toString('latin1')} HTTP/1.1`, ...hdrs(), ...length()); break;
      case 'http-1.0': lines.push(`${d.method} ${target} HTTP/1.0`, ...hdrs(), ...length()); omitHost = true; break;
      case 'no-host': lines.push(`${d.method} ${target} HTTP/1.1`, ...hdrs(), ...length()); omitHost = true; break;
      case 'absolute-form': lines.push(`${d.method} http://example.com${target} HTTP/1.1`, ...hdrs(), ...length()); break;
      case 'bad-chunked': lines.push(`${d.method} ${target} HTTP/1.1`, ...hdrs(), 'Transfer-Encoding: chunked'); rawBody = Buffer.from('zz\r\nhello\r\n0\r\n\r\n'); break;
      case 'cl-and-te': lines.push(`${d.method} ${target} HTTP/1.1`, ...hdrs(), 'Content-Length: 5', 'Transfer-Encoding: chunked'); rawBody = Buffer.from('0\r\n\r\n'); break;
      case 'header-no-colon': lines.push(`${d.method} ${target} HTTP/1.1`, ...hdrs(), 'X-Broken header', ...length()); break;
      case 'obs-fold': lines.push(`${d.method} ${target} HTTP/1.1`, ...hdrs(), 'X-Folded: a', ' b', ...length()); break;
      case 'negative-length': lines.push(`${d.method} ${target} HTTP/1.1`, ...hdrs(), 'Content-Length: -1'); rawBody = Buffer.alloc(0); break;
      case 'http-2.0-line': lines.push(`${d.method} ${target} HTTP/2.0`, ...hdrs(), ...length()); break;
      case 'asterisk': lines.push('OPTIONS * HTTP/1.1', ...hdrs(), ...length()); break;
      default: lines.push(`${d.method} ${target} HTTP/1.1`, ...hdrs(), ...length()); // lower-case methods
    }
    raw = { lines, body: rawBody, omitHost };
  } else if (/[^\u0021-\u00ff]/.test(target) || Object.values(headers).flat().some((v) => /[^\t\u0020-\u007e\u0080-\u00ff]/.test(v))) {
    // node:http refuses to send these: write them on the socket ourselves.
    raw = {
      lines: [`${d.method} ${target} HTTP/1.1`, ...Object.entries(headers).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${k}: ${x}`)), `Content-Length: ${body.length}`],
      body,
    };
    d.httpLevel ??= 'bytes in the request line or headers that node:http refuses to send (Node\'s parser may answer 400)';
  }
  // Characters beyond latin1 in the target are sent as their UTF-8 bytes.
  if (/[^\u0000-\u00ff]/.test(target)) target = Buffer.from(target, 'utf8').toString('latin1');
  const labels = d.labels.length ? d.labels.join('; ') : 'well-formed';
  return {
    id,
    op: d.op.name,
    category,
    description: `${category}: ${labels}`,
    method: d.method,
    path: target,
    headers,
    body,
    httpLevel: d.httpLevel,
    raw,
  };
}

export interface GenerateOptions {
  count?: number;
  seed?: number;
  operations?: readonly OperationDescriptor[];
  mutators?: readonly Mutator[];
}

export const DEFAULT_SEED = 0x5eed_2024;

/**
 * `count` malformed requests over `operations`: first every operation × every mutator
 * once (so each combination is covered whatever the count), then weighted random
 * operations and mutators; about one case in seven gets a second mutation.
 */
export function generateBadRequests(ctx: BadInputContext, options: GenerateOptions = {}): BadRequest[] {
  const { count = 5200, seed = DEFAULT_SEED, operations = [...V1_OPERATIONS, UNKNOWN_PATH_OPERATION], mutators = MUTATORS } = options;
  const rng = new Rng(seed);
  const out: BadRequest[] = [];
  const one = (op: OperationDescriptor, mutator: Mutator) => {
    const d = baseDraft(op, ctx, rng);
    const tools = makeTools(d, rng, ctx);
    mutator.apply(d, tools);
    let category = mutator.name;
    // Size and framing mutations stay alone (a repeated 1 MB parameter would be 150 MB).
    const alone = ['raw-http', 'odd-method', 'long-url', 'huge-value'];
    if (!d.raw && !d.httpLevel && !alone.includes(mutator.name) && rng.chance(1 / 7)) {
      const second = rng.weighted(mutators.filter((m) => !alone.includes(m.name)));
      second.apply(d, tools);
      category = `${mutator.name}+${second.name}`;
    }
    out.push(finish(d, out.length, category));
  };
  for (const op of operations) for (const m of mutators) if (out.length < count) one(op, m);
  const weighted = operations.map((op) => ({ op, weight: op.weight ?? 1 }));
  while (out.length < count) one(rng.weighted(weighted).op, rng.weighted(mutators));
  return out;
}

/* ------------------------------------------------------------------------------------ */
/* Sending                                                                               */

export interface Outcome {
  req: BadRequest;
  /** HTTP status, when an answer came. */
  status?: number;
  /** Why no answer came (socket error code, `closed`, `timeout`). */
  error?: string;
  ms: number;
  /** The first bytes of the answer's body. */
  bodyStart?: string;
}

function sendHttp(host: string, port: number, req: BadRequest, timeoutMs: number): Promise<Omit<Outcome, 'req' | 'ms'>> {
  // One connection per request, kept alive from the server's point of view: after an early
  // answer Node reads and discards the rest of a body it did not want, where with
  // `Connection: close` it would close (a reset that loses the answer while we still send).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise<Omit<Outcome, 'req' | 'ms'>>((resolve) => {
    let settled = false;
    const done = (o: Omit<Outcome, 'req' | 'ms'>) => {
      if (!settled) {
        settled = true;
        resolve(o);
      }
    };
    const headers = { ...req.headers };
    // node:http sends a GET/HEAD/DELETE/OPTIONS body with neither Content-Length nor chunked
    // framing (so the server would read it as the next request): always say how long it is.
    const has = (name: string) => Object.keys(headers).some((k) => k.toLowerCase() === name);
    if (req.body.length && !has('content-length') && !has('transfer-encoding')) headers['content-length'] = String(req.body.length);
    let r: http.ClientRequest;
    try {
      r = http.request({ host, port, method: req.method, path: req.path, headers, agent, setHost: true });
    } catch (err) {
      done({ error: `client refused: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` });
      return;
    }
    r.setTimeout(timeoutMs, () => {
      done({ error: 'timeout' });
      r.destroy();
    });
    r.on('response', (res) => {
      // A live stream that was accepted never ends by itself: its status is the answer.
      if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        done({ status: res.statusCode, bodyStart: '' });
        r.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < 2048) chunks.push(c);
        size += c.length;
      });
      const end = () => done({ status: res.statusCode, bodyStart: Buffer.concat(chunks).toString('utf8').slice(0, 300) });
      res.on('end', end);
      res.on('error', end);
      res.on('close', end);
    });
    r.on('error', (err: NodeJS.ErrnoException) => done({ error: err.code ?? err.message }));
    if (req.method === 'CONNECT') r.on('connect', (res, socket) => {
      socket.destroy();
      done({ status: res.statusCode });
    });
    r.end(req.body.length ? req.body : undefined);
  }).finally(() => agent.destroy());
}

function sendRaw(host: string, port: number, req: BadRequest, timeoutMs: number): Promise<Omit<Outcome, 'req' | 'ms'>> {
  return new Promise((resolve) => {
    const raw = req.raw!;
    const [first, ...rest] = raw.lines;
    const head = [first, ...(raw.omitHost ? [] : [`Host: ${host}:${port}`]), ...rest, 'Connection: close', '', ''].join('\r\n');
    const socket = net.connect({ host, port });
    const chunks: Buffer[] = [];
    let settled = false;
    const done = (o: Omit<Outcome, 'req' | 'ms'>) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(o);
    };
    const answer = () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      if (m) done({ status: Number(m[1]), bodyStart: text.slice(text.indexOf('\r\n\r\n') + 4, 300) });
      else done({ error: text.length ? `unparseable answer: ${JSON.stringify(text.slice(0, 40))}` : 'closed' });
    };
    // A deadline, not an idle timeout: a live stream's heartbeats would keep an idle one from firing.
    const deadline = setTimeout(() => done({ error: 'timeout' }), timeoutMs);
    socket.once('close', () => clearTimeout(deadline));
    // No half-close: Node aborts a request whose client has ended its side (the answer would
    // be lost); `Connection: close` makes the server close once it has answered.
    socket.on('connect', () => socket.write(Buffer.concat([Buffer.from(head, 'latin1'), raw.body])));
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      // A live stream that was accepted never ends by itself: its head is the answer.
      const text = Buffer.concat(chunks).toString('latin1');
      const headEnd = text.indexOf('\r\n\r\n');
      if (headEnd > 0 && /\r\ncontent-type: *text\/event-stream/i.test(text.slice(0, headEnd))) answer();
    });
    socket.on('end', answer);
    socket.on('close', answer);
    socket.on('error', (err: NodeJS.ErrnoException) => (chunks.length ? answer() : done({ error: err.code ?? err.message })));
  });
}

/** Sends every request, at most `concurrency` at a time, each on its own connection. */
export async function sendAll(
  baseUrl: string,
  requests: readonly BadRequest[],
  { concurrency = 8, timeoutMs = 20_000 }: { concurrency?: number; timeoutMs?: number } = {},
): Promise<Outcome[]> {
  const { hostname, port } = new URL(baseUrl);
  const outcomes: Outcome[] = new Array(requests.length);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const i = next++;
      const req = requests[i];
      const started = Date.now();
      const o = await (req.raw ? sendRaw : sendHttp)(hostname, Number(port), req, timeoutMs);
      outcomes[i] = { req, ...o, ms: Date.now() - started };
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return outcomes;
}

/**
 * A failure: a 5xx answer; a timeout (the server hung); or no answer at all to a request
 * that is well-formed at the HTTP level (only `httpLevel` requests may lose their
 * connection).
 */
export function isFailure(o: Outcome): boolean {
  if (o.status !== undefined) return o.status >= 500;
  if (o.error === 'timeout') return true;
  return !o.req.httpLevel;
}

/** Failures grouped by (status or error, method, path, first 80 characters of the description), largest groups first. */
export function summarise(outcomes: readonly Outcome[], limit = 80): string {
  const groups = new Map<string, { count: number; example: Outcome }>();
  for (const o of outcomes) {
    const path = o.req.path.split(/[?#]/)[0].slice(0, 60);
    const key = `${o.status ?? o.error}  ${o.req.method} ${path}  ${o.req.description.slice(0, 80)}`;
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { count: 1, example: o });
  }
  const sorted = [...groups.entries()].sort((a, b) => b[1].count - a[1].count);
  const lines = sorted.slice(0, limit).map(([key, g]) => `${String(g.count).padStart(5)} × ${key}  [e.g. #${g.example.req.id}${g.example.bodyStart ? ` ${JSON.stringify(g.example.bodyStart.slice(0, 100))}` : ''}]`);
  if (sorted.length > limit) lines.push(`  … and ${sorted.length - limit} more groups`);
  return lines.join('\n');
}

/** A coarser view: failures per (status or error, operation, mutator), largest first. */
export function summariseByCause(outcomes: readonly Outcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    const key = `${o.status ?? o.error}  ${o.req.op}  ${o.req.category}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([key, n]) => `${String(n).padStart(5)} × ${key}`).join('\n');
}

/** Counts per status (or error), e.g. `200: 1200, 400: 2500, closed: 12`. */
export function statusHistogram(outcomes: readonly Outcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    const k = String(o.status ?? o.error);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}: ${n}`).join(', ');
}
