import { Writable } from 'node:stream';
import pino from 'pino';
import { bareUrl, isSecretName, maskedUrl, maskedBridgeUrl, lenientDecode, REDACT_PATHS, redactCredentials, redactText, redactUrl } from './redact';

const TOKEN = 'Zq81TokenValue0123456789abcdefABCDEF4242';

describe('redactUrl', () => {
  it('hides tokens wherever they stand in the query', () => {
    expect(redactUrl('/v1/rooms/list?auth_token=abc123&format=xml'))
      .toBe('/v1/rooms/list?auth_token=[REDACTED]&format=xml');
    expect(redactUrl('/v1/rooms/list?format=xml&AUTH_TOKEN=abc'))
      .toBe('/v1/rooms/list?format=xml&AUTH_TOKEN=[REDACTED]');
    expect(redactUrl('/v1/users/create?password=s3cret#x')).toBe('/v1/users/create?password=[REDACTED]#x');
  });

  it('hides a bridge\'s inbound key, a credential in the path', () => {
    expect(redactUrl('/v2/bridge/inbound/k3yK3yK3yK3yK3yK3yK3yK3y?x=1')).toBe('/v2/bridge/inbound/[REDACTED]?x=1');
    expect(redactUrl('/v2/invitation/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd')).toBe('/v2/invitation/[REDACTED]');
    expect(redactUrl('/v2/user/7/invitation')).toBe('/v2/user/7/invitation');
    expect(redactUrl('/V2/Bridge/Inbound/abc/def')).toBe('/V2/Bridge/Inbound/[REDACTED]/def');
    expect(redactUrl('/v2/room/bridge/1')).toBe('/v2/room/bridge/1');
  });

  it('leaves other parameters alone', () => {
    expect(redactUrl('/v1/rooms/show?room_id=my_auth_token=1')).toBe('/v1/rooms/show?room_id=my_auth_token=1');
  });

  describe('sees through the spelling of the parameter name', () => {
    const cases: Array<[string, string]> = [
      ['percent-encoded letter', '%61uth_token'],
      ['percent-encoded underscore', 'auth%5Ftoken'],
      ['lower-case hex escape', 'auth%5ftoken'],
      ['every byte encoded', '%61%75%74%68%5F%74%6F%6B%65%6E'],
      ['encoded password', '%70assword'],
      ['double-encoded', '%2561uth_token'],
      ['%u escape', '%u0061uth_token'],
      ['array suffix', 'auth_token[]'],
      ['encoded array suffix', 'auth_token%5B%5D'],
      ['indexed suffix', 'auth_token[0]'],
      ['nested key', 'user[password]'],
      ['upper case', 'AUTH_TOKEN'],
      ['mixed case', 'Auth_Token'],
      ['dash', 'auth-token'],
      ['plus as space', 'auth+token'],
      ['NUL inside', 'auth_to%00ken'],
      ['invalid escape inside', 'auth_token%zz'],
      ['stray percent', 'auth_token%'],
      ['truncated UTF-8 escape', 'auth%E0%A4_token'],
      ['full-width letters (NFKC)', '%EF%BD%81uth_%EF%BD%94oken'],
      ['raw full-width letters', 'ａｕｔｈ_ｔｏｋｅｎ'],
    ];
    it.each(cases)('%s: %s', (_label, name) => {
      const out = redactUrl(`/v1/rooms/list?format=json&${name}=${TOKEN}&room_id=7`);
      expect(out).toBe(`/v1/rooms/list?format=json&${name}=[REDACTED]&room_id=7`);
    });
  });

  it.each([
    'auth_token', 'access_token', 'refresh_token', 'oauth_token', 'oauth_verifier', 'oauth_signature', 'password',
    'new_password', 'passwd', 'secret', 'client_secret', 'signed_request', 'authorization', 'Authorization',
    'api_key', 'apikey', 'API-KEY', 'x-api-key', 'token', 'signature', 'X-Amz-Signature',
  ])('treats %s as secret', (name) => {
    expect(isSecretName(name)).toBe(true);
    expect(redactUrl(`/x?${name}=${TOKEN}`)).toBe(`/x?${name}=[REDACTED]`);
  });

  it.each(['room_id', 'format', 'message', 'from', 'auth_test', 'user_id', 'email', 'name', 'date', 'timezone', 'topic', 'key', 'auth'])(
    'does not treat %s as secret', (name) => {
      expect(isSecretName(name)).toBe(false);
    });

  it('hides a signed file link\'s signature, its expiry and issue time left as they are', () => {
    expect(redactUrl('/files/14/0e6c/note.txt?expires=1796552764&issued=1795947964&signature=-xGxC9Rsblp67-CWFU_WBwjROzlglUXE8H3fPv2HIW8'))
      .toBe('/files/14/0e6c/note.txt?expires=1796552764&issued=1795947964&signature=[REDACTED]');
  });

  it('splits parameters on ; as well as &', () => {
    expect(redactUrl(`/v1/rooms/list?a=1;auth_token=${TOKEN};format=xml`)).toBe('/v1/rooms/list?a=1;auth_token=[REDACTED];format=xml');
    expect(redactUrl(`/v1/rooms/list?a=1;auth_token=${TOKEN}&b=2`)).toBe('/v1/rooms/list?a=1;auth_token=[REDACTED]&b=2');
  });

  it('redacts every occurrence of a repeated parameter', () => {
    expect(redactUrl(`/x?auth_token=${TOKEN}&auth_token=${TOKEN}&auth_token[]=${TOKEN}`))
      .toBe('/x?auth_token=[REDACTED]&auth_token=[REDACTED]&auth_token[]=[REDACTED]');
  });

  it('redacts values however they are encoded', () => {
    const encoded = [...TOKEN].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    expect(redactUrl(`/x?auth_token=${encoded}`)).toBe('/x?auth_token=[REDACTED]');
    expect(redactUrl(`/x?auth_token=${TOKEN}=${TOKEN}`)).toBe('/x?auth_token=[REDACTED]');
    expect(redactUrl(`/x?auth_token=%zz${TOKEN}%`)).toBe('/x?auth_token=[REDACTED]');
  });

  it('redacts secrets in the fragment', () => {
    expect(redactUrl(`/cb#access_token=${TOKEN}&state=1`)).toBe('/cb#access_token=[REDACTED]&state=1');
    expect(redactUrl(`/x?a=1#x&auth_token=${TOKEN}`)).toBe('/x?a=1#x&auth_token=[REDACTED]');
    expect(redactUrl(`/x#frag?auth_token=${TOKEN}`)).toBe('/x#frag?auth_token=[REDACTED]');
  });

  it('redacts a name whose = is percent-encoded', () => {
    expect(redactUrl(`/x?a=1&auth_token%3D${TOKEN}&b=2`)).toBe('/x?a=1&[REDACTED]&b=2');
    expect(redactUrl(`/x?auth_token%3D${TOKEN}=1`)).toBe('/x?[REDACTED]');
  });

  it('redacts a value that is itself a URL or query carrying a secret', () => {
    expect(redactUrl(`/x?next=%2Fv1%2Frooms%3Fauth_token%3D${TOKEN}&b=2`)).toBe('/x?next=[REDACTED]&b=2');
    expect(redactUrl(`/x?a=1?auth_token=${TOKEN}`)).toBe('/x?a=[REDACTED]');
  });

  it('redacts path segment parameters and URL passwords', () => {
    expect(redactUrl(`/v1/rooms/list;auth_token=${TOKEN}?format=xml`)).toBe('/v1/rooms/list;auth_token=[REDACTED]?format=xml');
    expect(redactUrl(`amqp://guest:${TOKEN}@127.0.0.1:5672/vhost`)).toBe('amqp://guest:[REDACTED]@127.0.0.1:5672/vhost');
    expect(redactUrl(`http://example.com/v1/rooms/list?auth_token=${TOKEN}`)).toBe('http://example.com/v1/rooms/list?auth_token=[REDACTED]');
  });

  it('leaves ordinary URLs exactly as written', () => {
    const untouched = [
      '/',
      '/health',
      '/v1/rooms/list',
      '/v1/rooms/list?',
      '/v1/rooms/list?format=xml',
      '/v1/rooms/history?room_id=Ops&date=recent&timezone=Europe%2FParis&format=xml',
      '/v1/rooms/message?room_id=Ops&from=CI&message=Build+%3Cb%3E42%3C%2Fb%3E+passed&color=green',
      '/v1/rooms/show?room_id=%E2%9C%93%20caf%C3%A9',
      '/v1/rooms/show?room_id=%zz%&x=%E0%A4',
      '/v1/rooms/topic?topic=my+token+is+secret&room_id=1',
      '/v1/tokens/list?x=1',
      '/v1/rooms/list?&&a&=b&c==d;;',
      '/v1/rooms/list#top',
      '/v1/rooms/list?a=1;b=2#c=3',
      'http://127.0.0.1:8080/v1/rooms/list?format=json',
      '/docs/api/auth',
      '/v1/users/show?user_id=ada%40example.com',
    ];
    for (const url of untouched) expect(redactUrl(url)).toBe(url);
  });

  it('never throws, whatever it is given', () => {
    const weird: unknown[] = [
      '', '%', '%%%', '?', '#', '?#?#', '?&=;;==', '\u0000?auth_token=\u0000', '\ud800?auth\udc00_token=x',
      `?${'%'.repeat(10_000)}`, `/${'a'.repeat(100_000)}?auth_token=${'b'.repeat(100_000)}`, `?${'a=1&'.repeat(20_000)}`,
      undefined, null, 42, { toString: () => { throw new Error('no'); } }, Symbol('x'),
    ];
    for (const w of weird) expect(() => redactUrl(w as string)).not.toThrow();
    expect(redactUrl(`?${'a[' .repeat(5000)}auth_token=${TOKEN}`)).not.toContain(TOKEN);
  });

  it('hides a token under any generated spelling of its name (seeded fuzz)', () => {
    let seed = 12345;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
    const spellChar = (c: string) => pick([c, c.toUpperCase(), `%${c.charCodeAt(0).toString(16)}`, `%${c.charCodeAt(0).toString(16).toUpperCase()}`]);
    const junk = ['a=1', 'format=xml', 'x=%zz', '%', 'b', 'c=%E0%A4', 'room_id=Ops', '', 'd=\u0000'];
    for (let i = 0; i < 2000; i++) {
      const base = pick(['auth_token', 'password', 'access_token', 'api_key', 'signed_request']);
      const name = [...base].map(spellChar).join('') + pick(['', '[]', '[0]', '%5B%5D', '%00']);
      const sep = pick(['&', ';']);
      const params = [pick(junk), `${name}=${TOKEN}`, pick(junk)];
      const url = `/v1/rooms/list${pick(['?', '?x&', '#', '?a=1#'])}${params.join(sep)}`;
      const out = redactUrl(url);
      expect(out).not.toContain(TOKEN);
      expect(out.startsWith('/v1/rooms/list')).toBe(true);
    }
  });
});

describe('bareUrl', () => {
  it('keeps scheme, host, port and path; drops credentials, query and fragment', () => {
    expect(bareUrl('https://user:pa55@hooks.example.com:8443/in/7?token=abc&x=1#frag')).toBe('https://hooks.example.com:8443/in/7');
    expect(bareUrl('https://abc123@hooks.example.com/in')).toBe('https://hooks.example.com/in');
    expect(bareUrl('http://127.0.0.2:9000/hook?signed_request=x')).toBe('http://127.0.0.2:9000/hook');
    expect(bareUrl('https://hooks.example.com/in;token=abc/x')).toBe('https://hooks.example.com/in;token=[REDACTED]/x');
  });

  it('cuts what is not a URL at its query', () => {
    expect(bareUrl('not a url?token=abc')).toBe('not a url');
  });
});

describe('maskedUrl', () => {
  it('keeps scheme, host, port, path and the query\'s names, each value masked; drops credentials and fragment', () => {
    expect(maskedUrl('https://user:pa55@hooks.example.com:8443/in/7?token=abc&x=1#frag')).toBe('https://hooks.example.com:8443/in/7?token=***&x=***');
    expect(maskedUrl('https://hooks.example.com/in?secret=s3cr3t&secret=again')).toBe('https://hooks.example.com/in?secret=***&secret=***');
    expect(maskedUrl('https://hooks.example.com/in?flag')).toBe('https://hooks.example.com/in?flag=***');
    expect(maskedUrl('https://hooks.example.com/in;token=abc/x?a%20b=c')).toBe('https://hooks.example.com/in;token=[REDACTED]/x?a%20b=***');
  });

  it('adds nothing to a URL without a query, and cuts what is not a URL at its query', () => {
    expect(maskedUrl('https://hooks.example.com/in')).toBe('https://hooks.example.com/in');
    expect(maskedUrl('https://hooks.example.com/in?')).toBe('https://hooks.example.com/in');
    expect(maskedUrl('not a url?token=abc')).toBe('not a url');
  });
});

describe('redactCredentials', () => {
  it.each([
    ['a URL', 'mysql://u:S3cretPw@h/x', 'mysql://u:[REDACTED]@h/x'],
    ['an empty user name (Redis)', 'redis://:S3cretPw@127.0.0.1:5999/0', 'redis://:[REDACTED]@127.0.0.1:5999/0'],
    ['a password with an unencoded /', 'amqp://guest:S3c/retPw@h:5672', 'amqp://guest:[REDACTED]@h:5672'],
    ['a password with an unencoded @ and #', 'postgres://u:S3c@re#tPw@h/x', 'postgres://u:[REDACTED]@h/x'],
    ['a URL inside a sentence', 'connect amqp://u:S3cretPw@h failed: ECONNREFUSED', 'connect amqp://u:[REDACTED]@h failed: ECONNREFUSED'],
    ['a list of URLs', 'amqp://u:S3cretPw@a,amqp://v:S3cretPw@b', 'amqp://u:[REDACTED]@a,amqp://v:[REDACTED]@b'],
    ['a secret query parameter', 'postgres://h/x?password=S3cretPw', 'postgres://h/x?password=[REDACTED]'],
    ['a user name alone', 'postgres://postgres@h/x', 'postgres://postgres@h/x'],
    ['no URL', 'must be a port number', 'must be a port number'],
  ])('hides the password of %s', (_label, text, expected) => {
    expect(redactCredentials(text)).toBe(expected);
  });

  it('reads user:password@host without a scheme only when asked (a configuration value)', () => {
    expect(redactCredentials('u:S3cretPw@h/x', { bare: true })).toBe('u:[REDACTED]@h/x');
    expect(redactCredentials('redis//:S3cretPw@h', { bare: true })).toBe('redis//:[REDACTED]@h');
    expect(redactCredentials('u:S3cretPw@h/x')).toBe('u:S3cretPw@h/x');
    expect(redactCredentials('127.0.0.1:6379', { bare: true })).toBe('127.0.0.1:6379');
  });
});

describe('bareUrl of text that does not parse', () => {
  it('shows no password', () => {
    expect(bareUrl('https://u:S3c/retPw@h:99999/in?key=SECRETQ')).toBe('https://u:[REDACTED]@h:99999/in');
  });
});

describe('lenientDecode', () => {
  it('decodes what it can and keeps the rest', () => {
    expect(lenientDecode('%61uth%5Ftoken')).toBe('auth_token');
    expect(lenientDecode('%zz%')).toBe('%zz%');
    expect(lenientDecode('a%E0%A4b')).toBe('a\ufffdb');
    expect(lenientDecode('%u0061')).toBe('a');
    expect(lenientDecode('caf%C3%A9')).toBe('café');
  });
});

describe('redactText', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const b64url = (s: string) => Buffer.from(s).toString('base64url');
  const pct = (s: string, upper = true) =>
    [...Buffer.from(s)].map((b) => `%${upper ? b.toString(16).toUpperCase().padStart(2, '0') : b.toString(16).padStart(2, '0')}`).join('');

  it('replaces the raw secret, every time it appears', () => {
    expect(redactText(`a ${TOKEN} b ${TOKEN}`, [TOKEN])).toBe('a [REDACTED] b [REDACTED]');
  });

  it.each([
    ['percent-encoded, upper-case hex', pct(TOKEN)],
    ['percent-encoded, lower-case hex', pct(TOKEN, false)],
    ['partly percent-encoded', TOKEN.slice(0, 10) + pct(TOKEN.slice(10, 20)) + TOKEN.slice(20)],
    ['double percent-encoded', pct(TOKEN).replace(/%/g, '%25')],
    ['JSON \\u escapes', [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['base64', b64(TOKEN)],
    ['base64url', b64url(TOKEN)],
    ['base64 inside Basic credentials (offset 0)', b64(`${TOKEN}:`)],
    ['base64 inside Basic credentials (offset 1)', b64(`u:${TOKEN}`)],
    ['base64 inside Basic credentials (offset 2)', b64(`us:${TOKEN}x`)],
    ['base64 inside Basic credentials (offset 3)', b64(`use:${TOKEN}xy`)],
    ['hex', Buffer.from(TOKEN).toString('hex')],
    ['upper-case hex', Buffer.from(TOKEN).toString('hex').toUpperCase()],
  ])('replaces it %s', (_label, encoded) => {
    const out = redactText(`{"msg":"request","url":"/x?t=${encoded}&y=1"}`, [TOKEN]);
    expect(out).toContain('[REDACTED]');
    expect(out).not.toContain(encoded);
    expect(out).not.toContain(TOKEN);
    expect(out.startsWith('{"msg":"request","url":"/x?t=')).toBe(true);
    expect(out.endsWith('&y=1"}')).toBe(true);
  });

  it('replaces secrets with spaces, unicode and regex characters, form-encoded or not', () => {
    const secret = 'p@ss word+(.*) é✓';
    const form = new URLSearchParams({ password: secret }).toString().slice('password='.length);
    expect(form).toContain('+');
    for (const written of [secret, form, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), b64(secret)]) {
      expect(redactText(`x=${written};`, [secret])).toBe('x=[REDACTED];');
    }
  });

  it('finds a short secret in a text that is nothing but one of its encodings (none is shorter than the secret)', () => {
    for (const secret of ['abcd', 'ab:d', 'é✓ab', 'abcdef', 'a b+c/d=e', 'ÿÿÿÿÿ', '12345678']) {
      const forms = [secret, b64(secret), b64url(secret), pct(secret), Buffer.from(secret).toString('hex'), encodeURIComponent(secret)];
      for (const written of forms) expect([written, redactText(written, [secret])]).toEqual([written, '[REDACTED]']);
    }
  });

  it('leaves other text alone and ignores unusable secrets', () => {
    const text = 'GET /v1/rooms/list?format=xml 200 abc';
    expect(redactText(text, [TOKEN])).toBe(text);
    expect(redactText(text, [])).toBe(text);
    expect(redactText(text, ['', 'abc', undefined as unknown as string, 7 as unknown as string])).toBe(text);
    expect(redactText('', [TOKEN])).toBe('');
  });

  it('handles several secrets, the longer first', () => {
    const short = TOKEN.slice(0, 12);
    expect(redactText(`${TOKEN} ${short}`, [short, TOKEN])).toBe('[REDACTED] [REDACTED]');
  });

  it('finds a secret whose own % and \\ characters read like escapes, written raw or encoded', () => {
    const secret = 'a%25b\\u0041c%d';
    for (const written of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1), `a%25${encodeURIComponent('25b\\')}u0041c%25d`]) {
      expect(redactText(`<${written}>`, [secret])).toBe('<[REDACTED]>');
    }
    // Upper-case JSON escapes, and a near miss left alone.
    expect(redactText([...'Tok3n!'].map((c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join(''), ['Tok3n!'])).toBe('[REDACTED]');
    expect(redactText('Tok3n? Tok3n!', ['Tok3n!'])).toBe('Tok3n? [REDACTED]');
  });

  it('costs little for a secret it has never seen (each webhook attempt signs a new JWT)', () => {
    const headers = ['Tue, 24 Nov 2026 20:00:00 GMT', 'keep-alive', 'timeout=5', 'application/json; charset=utf-8'];
    const body = JSON.stringify({ message: 'pong '.repeat(200), color: 'green' });
    const started = performance.now();
    for (let i = 0; i < 1_000; i++) {
      const jwt = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(`${i}`.repeat(150)).toString('base64url')}.${i}`;
      for (const text of [...headers, body]) redactText(text, [jwt, TOKEN]);
    }
    // A regex compiled per secret took 10 ms and more an attempt: this is 1,000 attempts.
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('REDACT_PATHS', () => {
  function logged(obj: Record<string, unknown>): string {
    let out = '';
    const stream = new Writable({ write(chunk, _enc, cb) { out += chunk.toString(); cb(); } });
    const logger = pino({ redact: { paths: REDACT_PATHS, censor: '[REDACTED]' } }, stream);
    logger.info(obj, 'line');
    return out;
  }

  it('is accepted by pino', () => {
    expect(() => pino({ redact: { paths: REDACT_PATHS } })).not.toThrow();
  });

  it.each([
    ['auth_token', { auth_token: TOKEN }],
    ['nested auth_token', { params: { auth_token: TOKEN } }],
    ['password', { user: { password: TOKEN } }],
    ['token', { token: TOKEN }],
    ['headers.authorization', { headers: { authorization: `Bearer ${TOKEN}` } }],
    ['headers.Authorization', { headers: { Authorization: `Bearer ${TOKEN}` } }],
    ['headers.AUTHORIZATION', { headers: { AUTHORIZATION: `Bearer ${TOKEN}` } }],
    ['req.headers.authorization', { req: { headers: { authorization: `Bearer ${TOKEN}` } } }],
    ['req.headers.Authorization', { req: { headers: { Authorization: `Bearer ${TOKEN}` } } }],
    ['res.headers.authorization', { res: { headers: { authorization: TOKEN } } }],
    ['proxy-authorization', { headers: { 'proxy-authorization': `Basic ${TOKEN}` } }],
    ['cookie', { req: { headers: { cookie: `sid=${TOKEN}` } } }],
    ['*.oauthSecret', { webhook: { oauthSecret: TOKEN } }],
    ['*.secret', { webhook: { secret: TOKEN } }],
    ['*.access_token', { oauth: { access_token: TOKEN } }],
  ])('hides %s', (_label, obj) => {
    const line = logged(obj);
    expect(line).toContain('[REDACTED]');
    expect(line).not.toContain(TOKEN);
  });

  it('keeps the rest of the line', () => {
    const line = JSON.parse(logged({ method: 'GET', url: '/v1/rooms/list', headers: { host: 'x', authorization: TOKEN } }));
    expect(line).toMatchObject({ method: 'GET', url: '/v1/rooms/list', headers: { host: 'x', authorization: '[REDACTED]' } });
  });
});

describe('maskedBridgeUrl', () => {
  it.each([
    ['https://hooks.slack.com/services/T0001/B0002/XXXXXXXXXXXXXXXXXXXXXXXX', 'https://hooks.slack.com/services/***'],
    ['https://discord.com/api/webhooks/1234567890/abcdefTOKENghijkl', 'https://discord.com/api/***'],
    ['https://mm.example.org/hooks/xi3ndq1kcffxbq9ju5q8d7ubyr', 'https://mm.example.org/hooks/***'],
    ['https://chat.googleapis.com/v1/spaces/AAAA/messages?key=KEYKEY&token=TOKTOK', 'https://chat.googleapis.com/v1/***?key=***&token=***'],
    ['https://prod-1.westus.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke?api-version=2016-06-01&sig=SIGSIG',
      'https://prod-1.westus.logic.azure.com/workflows/***?api-version=***&sig=***'],
    ['https://matrix.example.org', 'https://matrix.example.org'],
    ['https://user:pass@rc.example.org/hooks/ID/TOKEN', 'https://rc.example.org/hooks/***'],
    ['https://relay.example.org/SECRETKEY', 'https://relay.example.org/***'],
    ['not a url /hooks/SECRET', '***'],
  ])('%s is shown as %s', (url, shown) => {
    expect(maskedBridgeUrl(url)).toBe(shown);
  });
});
