/**
 * The one place that decides what a log line must not show.
 *
 *  - `redactUrl` for URLs and request targets (the access log): the value of every
 *    parameter whose *name* looks secret, however the client spelled the name.
 *  - `redactText` for any text, given the secret values themselves (the gateway knows
 *    the token it authenticated with): every encoding of them we can think of.
 *  - `REDACT_PATHS` for the objects handed to pino.
 */

export const REDACTED = '[REDACTED]';

/**
 * A parameter is secret when its normalised name (percent-decoded, lower-cased, reduced
 * to letters and digits) contains one of these. `signature`: a signed file link
 * (`/files/…?expires=&issued=&signature=`) is a bearer credential until it expires, as
 * are other services' signed URLs (`X-Amz-Signature`).
 */
const SECRET_NAME_PARTS = ['token', 'password', 'passwd', 'secret', 'signedrequest', 'signature', 'authorization', 'apikey', 'oauth'];

/** How many rounds of percent-decoding a name gets (`%2561uth_token` is two). */
const DECODE_ROUNDS = 3;

const HEX = /^[0-9a-fA-F]{2}$/;
const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * Percent-decoding that never throws: `%XX` become bytes, `%uXXXX` code units, anything
 * else (a stray `%`, `%zz`) stays as written; the bytes are read as UTF-8, invalid
 * sequences becoming U+FFFD.
 */
export function lenientDecode(input: string): string {
  if (!input.includes('%')) return input;
  let out = '';
  let bytes: number[] = [];
  const flush = () => {
    if (bytes.length) out += Buffer.from(bytes).toString('utf8');
    bytes = [];
  };
  for (let i = 0; i < input.length; i++) {
    const c = input[i];
    if (c === '%') {
      const two = input.slice(i + 1, i + 3);
      if (HEX.test(two)) {
        bytes.push(parseInt(two, 16));
        i += 2;
        continue;
      }
      const u = input.slice(i + 2, i + 6);
      if ((input[i + 1] === 'u' || input[i + 1] === 'U') && HEX4.test(u)) {
        flush();
        out += String.fromCharCode(parseInt(u, 16));
        i += 5;
        continue;
      }
    }
    flush();
    out += c;
  }
  flush();
  return out;
}

/** The name reduced to what we compare: decoded (a few rounds), NFKC, lower case, [a-z0-9] only. */
function normaliseName(name: string): string {
  let s = name.replace(/\+/g, ' ');
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    const decoded = lenientDecode(s);
    if (decoded === s) break;
    s = decoded;
  }
  // `auth_token[]`, `user[password]`, `AUTH-TOKEN`, `auth_to\u0000ken`: brackets, case and
  // separators do not change what the parameter carries.
  return s.normalize('NFKC').toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Whether a parameter (or header, or field) of this name carries a secret. */
export function isSecretName(name: string): boolean {
  const n = normaliseName(name);
  return n !== '' && SECRET_NAME_PARTS.some((part) => n.includes(part));
}

/** `a=1&next=/x?auth_token=T`: a value that is itself a URL or query carrying a secret. */
const NESTED_PARAM = /[?&;#]([^=&;?#]{1,200})=/g;

function valueCarriesSecret(value: string): boolean {
  if (!/[?&;#%]/.test(value)) return false;
  let decoded = value.replace(/\+/g, ' ');
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    const d = lenientDecode(decoded);
    if (d === decoded) break;
    decoded = d;
  }
  for (const m of decoded.matchAll(NESTED_PARAM)) {
    if (isSecretName(m[1])) return true;
  }
  return false;
}

/**
 * One query-like string (query, fragment, or the matrix parameters of a path segment):
 * parameters separated by `&` or `;`. Secret values become `[REDACTED]`; everything else
 * stays byte for byte as written.
 */
function redactParams(params: string): string {
  if (params === '') return params;
  return params
    .split(/([&;])/)
    .map((segment, i) => {
      if (i % 2 === 1 || segment === '') return segment; // a separator
      const eq = segment.indexOf('=');
      if (eq === -1) {
        // `auth_token%3DT`: the `=` is encoded, so the whole segment is name and value.
        const decoded = lenientDecode(segment.replace(/\+/g, ' '));
        return decoded.includes('=') && isSecretName(decoded.slice(0, decoded.indexOf('='))) ? REDACTED : segment;
      }
      const name = segment.slice(0, eq);
      const value = segment.slice(eq + 1);
      const decodedName = lenientDecode(name);
      if (decodedName.includes('=') && isSecretName(decodedName.slice(0, decodedName.indexOf('=')))) return REDACTED;
      if (isSecretName(name) || valueCarriesSecret(value)) return `${name}=${REDACTED}`;
      return segment;
    })
    .join('');
}

/** `/v1/rooms/list;auth_token=T`: matrix parameters of path segments. */
function redactPath(path: string): string {
  if (!path.includes(';')) return path;
  return path
    .split('/')
    .map((segment) => {
      const semi = segment.indexOf(';');
      return semi === -1 ? segment : segment.slice(0, semi + 1) + redactParams(segment.slice(semi + 1));
    })
    .join('/');
}

const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*:)([^/?#@]*)@/i;

/** Path segments that are credentials themselves: a bridge's inbound key (`/v2/bridge/inbound/{key}`), an invitation (`/v2/invitation/{token}`). */
const SECRET_SEGMENT = /(\/bridge\/inbound\/|\/v2\/invitation\/)[^/;]+/gi;

function redactUrlUnsafe(url: string): string {
  let rest = url;
  let fragment: string | undefined;
  const hash = rest.indexOf('#');
  if (hash !== -1) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  let query: string | undefined;
  const q = rest.indexOf('?');
  if (q !== -1) {
    query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  rest = redactPath(rest.replace(USERINFO, `$1${REDACTED}@`).replace(SECRET_SEGMENT, `$1${REDACTED}`));
  return rest +
    (query === undefined ? '' : `?${redactParams(query)}`) +
    (fragment === undefined ? '' : `#${redactParams(fragment)}`);
}

/**
 * A URL (absolute, or a path with its query, as in `req.originalUrl`) with the value of
 * every secret parameter replaced by `[REDACTED]`, in the query, the fragment and path
 * segment parameters, and the password of `scheme://user:password@host`.
 *
 * Parameter names are compared after percent-decoding (invalid escapes tolerated,
 * `%2561` decoded twice), NFKC, lower-casing and dropping everything but letters and
 * digits, so `%61uth_token`, `auth%5Ftoken`, `AUTH_TOKEN`, `auth_token[]` and
 * `auth-token` are all `auth_token`; parameters are separated by `&` and `;`. The path and
 * the other parameters stay exactly as written. Never throws: whatever cannot be read
 * loses its whole query and fragment.
 */
export function redactUrl(url: string): string {
  let text: string;
  try {
    text = typeof url === 'string' ? url : String(url);
  } catch {
    return REDACTED;
  }
  try {
    return redactUrlUnsafe(text);
  } catch {
    const cut = text.search(/[?#;]/);
    return cut === -1 ? text : `${text.slice(0, cut)}?${REDACTED}`;
  }
}

/** A URL in text: `scheme://` and what follows, up to white space or the next `,scheme://` (a list of URLs). */
const URL_IN_TEXT = /([a-z][a-z0-9+.-]*:\/\/)((?:(?!,\s*[a-z][a-z0-9+.-]*:\/\/)\S)*)/gi;

/** `user:password@rest` with the password hidden; text without both `:` and a later `@` as it was. */
function hideUserinfoPassword(text: string): string {
  // The last `@`, not the first: a password may hold an unencoded `@`, `/` or `#` (then the
  // value does not parse as a URL at all). An `@` further on, in a path or a query, hides
  // more than the password: never less.
  const at = text.lastIndexOf('@');
  const colon = text.indexOf(':');
  if (at === -1 || colon === -1 || colon > at) return text;
  return `${text.slice(0, colon + 1)}${REDACTED}${text.slice(at)}`;
}

/**
 * Text that names URLs (a configuration value, a driver's error message) with the password
 * of every `scheme://user:password@host` hidden, whether or not the URL parses, and the
 * secret parameters of its query as redactUrl hides them: `mysql://u:[REDACTED]@h/x`.
 * A user name alone (`postgres://postgres@host`) stays: it is how most such URLs name
 * their role. With `bare`, a value without `scheme://` that reads `user:password@host` is
 * treated as such (a URL whose scheme was forgotten).
 */
export function redactCredentials(text: string, options: { bare?: boolean } = {}): string {
  const value = String(text);
  if (options.bare && !/[a-z][a-z0-9+.-]*:\/\//i.test(value)) return redactUrl(hideUserinfoPassword(value));
  return value.replace(URL_IN_TEXT, (_m, scheme: string, rest: string) => redactUrl(`${scheme}${hideUserinfoPassword(rest)}`));
}

/**
 * A URL as shown to people (a room notification, an operator's table): scheme, host, port
 * and path, without credentials, query or fragment, where add-on frameworks and receivers
 * put their tokens; secret path parameters (`;token=`) redacted. Text that is not an
 * absolute URL keeps what precedes its query.
 */
export function bareUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${redactUrl(u.pathname)}`;
  } catch {
    return redactCredentials(String(url), { bare: true }).replace(/[?#][\s\S]*$/, '');
  }
}

/** What maskedUrl shows in place of each value of a query. */
export const MASKED_VALUE = '***';

/**
 * A webhook's URL as shown to anyone but its creator (the room's owner and group admins
 * included): bareUrl's scheme, host, port and path, and the query's parameter names with
 * each value replaced by `***` (a receiver's token often rides in the query; its names say
 * how the receiver is called, not its secrets): `https://h.example/in?token=***&x=***`.
 * The one masking of webhook URLs: the API, the delivery log, the console and the CLI.
 */
export function maskedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return bareUrl(url);
  }
  const names = [...parsed.searchParams.keys()];
  const query = names.map((n) => `${encodeURIComponent(n)}=${MASKED_VALUE}`).join('&');
  return `${bareUrl(url)}${query ? `?${query}` : ''}`;
}

/**
 * A bridge's URL as shown anywhere (API, logs, audit, delivery log): a platform's
 * incoming-webhook URL is itself the credential, in its path (Slack `/services/T/B/SECRET`,
 * Discord `/api/webhooks/ID/TOKEN`, Mattermost `/hooks/KEY`, Teams `/webhookb2/...`) or its
 * query (Google Chat `?key=&token=`, Teams Workflows `?sig=`). So: scheme, host and port, the
 * path's first segment when more follow (it says what the platform is, not who), `/***` for
 * the rest, and
 * the query's names with masked values (maskedUrl): `https://hooks.slack.com/services/***`.
 */
export function maskedBridgeUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return MASKED_VALUE;
  }
  const segments = parsed.pathname.split('/').filter((s) => s !== '');
  // A lone segment may be the key itself (`https://relay.example/KEY`): masked too.
  const path = segments.length === 0 ? '' : segments.length === 1 ? `/${MASKED_VALUE}` : `/${segments[0]}/${MASKED_VALUE}`;
  const query = [...parsed.searchParams.keys()].map((n) => `${encodeURIComponent(n)}=${MASKED_VALUE}`).join('&');
  return `${parsed.protocol}//${parsed.host}${path}${query ? `?${query}` : ''}`;
}

/* ------------------------------------------------------------------------------------ */

/** Secrets shorter than this are not searched for: they would match everywhere. */
const MIN_SECRET_LENGTH = 4;
/** Shortest encoded fragment (base64 core, hex) worth replacing. */
const MIN_ENCODED_LENGTH = 8;

/** One way a character of a secret may be written: `text`, compared ignoring ASCII case when `anyCase` (hex digits). */
interface CharForm {
  text: string;
  anyCase: boolean;
}

const hex2 = (b: number) => b.toString(16).padStart(2, '0');

/** Forms of the characters met so far: a character's forms never change (bounded: a secret may hold any). */
const charFormsCache = new Map<string, CharForm[]>();

/**
 * The ways one character of a secret may be written, raw first: `%XX` (either hex case),
 * double-encoded `%25XX`, `+` for a space, and JSON escapes (`\uXXXX`, `\"`). A scan over these
 * (matchSecretAt) stands where one regex of the same alternatives per secret did: V8 took 10
 * to 50 ms to compile it, and a JWT is a new secret on every webhook attempt.
 */
function formsOfChar(ch: string): CharForm[] {
  const cached = charFormsCache.get(ch);
  if (cached) return cached;
  const alternatives: CharForm[] = [{ text: ch, anyCase: false }];
  const bytes = [...Buffer.from(ch, 'utf8')];
  alternatives.push({ text: bytes.map((b) => `%${hex2(b)}`).join(''), anyCase: true });
  alternatives.push({ text: bytes.map((b) => `%25${hex2(b)}`).join(''), anyCase: true });
  if (ch === ' ') alternatives.push({ text: '+', anyCase: false });
  const jsonShort = JSON_SHORT_ESCAPES[ch];
  if (jsonShort) alternatives.push({ text: jsonShort, anyCase: false });
  const units = ch.length === 1 ? [ch.charCodeAt(0)] : [ch.charCodeAt(0), ch.charCodeAt(1)];
  alternatives.push({ text: units.map((u) => `\\u${u.toString(16).padStart(4, '0')}`).join(''), anyCase: true });
  if (charFormsCache.size >= 4_096) charFormsCache.clear();
  charFormsCache.set(ch, alternatives);
  return alternatives;
}

/** JSON's two-character escapes (a JSON log line writes a secret's `"` as `\\"`). */
const JSON_SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"', '\\': '\\\\', '/': '\\/', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f',
};

const lowerAscii = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code);

/** Whether `form` is written in `text` at `at`. */
function formAt(text: string, at: number, form: CharForm): boolean {
  if (at + form.text.length > text.length) return false;
  for (let i = 0; i < form.text.length; i++) {
    const a = text.charCodeAt(at + i);
    const b = form.text.charCodeAt(i);
    if (a !== b && !(form.anyCase && lowerAscii(a) === lowerAscii(b))) return false;
  }
  return true;
}

/**
 * Where the secret (its characters `chars`, from the `k`th on, each in any of its forms)
 * written at `at` ends, or -1. Forms are tried in order and backtracked, as a regex's
 * alternatives would be; only a character two of whose forms match there (a `%` or `\\` of
 * the secret's own) branches.
 */
function matchSecretAt(text: string, at: number, chars: readonly string[], k = 0): number {
  let pos = at;
  for (let i = k; i < chars.length; i++) {
    const forms = formsOfChar(chars[i]);
    let found: CharForm | null = null;
    let more = false;
    for (const form of forms) {
      if (!formAt(text, pos, form)) continue;
      if (found) more = true;
      else found = form;
    }
    if (!found) return -1;
    if (more) {
      for (const form of forms) {
        if (!formAt(text, pos, form)) continue;
        const end = matchSecretAt(text, pos + form.text.length, chars, i + 1);
        if (end !== -1) return end;
      }
      return -1;
    }
    pos += found.text.length;
  }
  return pos;
}

const PERCENT = 37;
const BACKSLASH = 92;
const PLUS = 43;

/** `text` with every (leftmost, non-overlapping) writing of the secret replaced by [REDACTED]. */
function replaceSecret(text: string, chars: readonly string[]): string {
  // The raw writing is the shortest: shorter text cannot hold any.
  const minLength = chars.reduce((n, ch) => n + ch.length, 0);
  if (chars.length === 0 || text.length < minLength) return text;
  const first = chars[0].charCodeAt(0);
  const firstIsSpace = chars[0] === ' ';
  let out = '';
  let copied = 0;
  for (let at = 0; at + minLength <= text.length;) {
    const c = text.charCodeAt(at);
    const candidate = c === first || c === PERCENT || c === BACKSLASH || (firstIsSpace && c === PLUS);
    const end = candidate ? matchSecretAt(text, at, chars) : -1;
    if (end === -1) {
      at++;
      continue;
    }
    out += text.slice(copied, at) + REDACTED;
    copied = end;
    at = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * The base64 (and base64url) text of the secret wherever it stands in a longer base64
 * message: for each of the three byte alignments, the characters that depend on the
 * secret's bytes alone.
 */
function base64Cores(bytes: Buffer): string[] {
  const cores = new Set<string>();
  // The secret encoded alone, padding included, goes entirely.
  const whole = bytes.toString('base64');
  if (whole.length >= MIN_ENCODED_LENGTH) {
    for (const w of [whole, whole.replace(/=+$/, '')]) {
      cores.add(w);
      cores.add(w.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64').replace(/=+$/, '');
    const first = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + bytes.length) * 8) / 6);
    const core = encoded.slice(first, end);
    if (core.length >= MIN_ENCODED_LENGTH) {
      cores.add(core);
      cores.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...cores];
}

interface SecretForms {
  /** The secret's characters (code points). */
  chars: string[];
  literals: string[];
}

const formsCache = new Map<string, SecretForms>();

function formsOf(secret: string): SecretForms {
  const cached = formsCache.get(secret);
  if (cached) return cached;
  const bytes = Buffer.from(secret, 'utf8');
  const literals = new Set<string>(base64Cores(bytes));
  const hex = bytes.toString('hex');
  if (hex.length >= MIN_ENCODED_LENGTH) {
    literals.add(hex);
    literals.add(hex.toUpperCase());
  }
  const forms = { chars: [...secret], literals: [...literals].sort((a, b) => b.length - a.length) };
  if (formsCache.size >= 256) formsCache.delete(formsCache.keys().next().value as string);
  formsCache.set(secret, forms);
  return forms;
}

/**
 * `text` with each of `secrets` replaced by `[REDACTED]` in every encoding we can think
 * of: raw; percent-encoded, wholly or in part, either hex case, or twice; form-encoded
 * (`+` for spaces); JSON escapes (`\u00XX`, `\"`); base64 and base64url, alone or inside a longer
 * base64 message (an `Authorization: Basic` header); hex. Secrets shorter than 4
 * characters are ignored (they would match everywhere). Never throws.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  if (typeof text !== 'string' || text === '' || !Array.isArray(secrets)) return text;
  // No writing of a secret is shorter than the secret (an encoded one is longer), so a text
  // shorter than a secret cannot hold it: a delivery's answer headers are checked against its
  // signature and JWT, and most are shorter than both, without working out their encodings.
  const usable = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH && s.length <= text.length))]
    .sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of usable) {
    try {
      const forms = formsOf(secret);
      out = replaceSecret(out, forms.chars);
      for (const literal of forms.literals) out = out.split(literal).join(REDACTED);
    } catch {
      out = out.split(secret).join(REDACTED);
    }
  }
  return out;
}

/* ------------------------------------------------------------------------------------ */

/**
 * pino `redact` paths for the objects our services log. pino matches keys exactly, so
 * the usual spellings of `Authorization` are listed one by one (Node lower-cases the
 * headers it parses; objects built by hand or by fetch's Headers may not).
 */
export const REDACT_PATHS = [
  'auth_token',
  '*.auth_token',
  'password',
  '*.password',
  'token',
  '*.token',
  'access_token',
  '*.access_token',
  'secret',
  '*.secret',
  'oauthSecret',
  '*.oauthSecret',
  'authorization',
  'Authorization',
  'headers.authorization',
  'headers.Authorization',
  'headers.AUTHORIZATION',
  '*.headers.authorization',
  '*.headers.Authorization',
  '*.headers.AUTHORIZATION',
  'req.headers.authorization',
  'req.headers.Authorization',
  'headers["proxy-authorization"]',
  '*.headers["proxy-authorization"]',
  'headers.cookie',
  '*.headers.cookie',
];
