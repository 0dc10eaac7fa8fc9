import {
  clearedSessionCookie, csrfTokenMatches, csrfTokenOf, isSecureContext, needsCsrfToken, sessionCookie, sessionSecretOf,
} from './session-cookie';

const SECRET = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd';

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, for the whole site, with a Max-Age; Secure only under TLS', () => {
    expect(sessionCookie(SECRET, 1_209_600, false)).toBe(`chat_session=${SECRET}; HttpOnly; SameSite=Lax; Path=/; Max-Age=1209600`);
    expect(sessionCookie(SECRET, 60.9, true)).toBe(`chat_session=${SECRET}; HttpOnly; SameSite=Lax; Path=/; Max-Age=60; Secure`);
  });

  it('is cleared by an empty value that expires at once', () => {
    expect(clearedSessionCookie(false)).toBe('chat_session=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0');
    expect(clearedSessionCookie(true)).toMatch(/; Max-Age=0; Secure$/);
  });

  it('is read from a Cookie header among others, and only when it could be a secret we made', () => {
    expect(sessionSecretOf(`theme=dark; chat_session=${SECRET}; lang=en`)).toBe(SECRET);
    expect(sessionSecretOf(`chat_session=${SECRET}`)).toBe(SECRET);
    expect(sessionSecretOf(['a=1', ` chat_session = ${SECRET} `])).toBe(SECRET);
    expect(sessionSecretOf('other_chat_session=x; chat_session_x=y')).toBeUndefined();
    expect(sessionSecretOf('chat_session=')).toBeUndefined();
    expect(sessionSecretOf('chat_session=abc%20def; x=1')).toBeUndefined();
    expect(sessionSecretOf(undefined)).toBeUndefined();
  });
});

describe('the CSRF token', () => {
  it('is derived from the session secret: stable for one session, different for another', () => {
    expect(csrfTokenOf(SECRET)).toBe(csrfTokenOf(SECRET));
    expect(csrfTokenOf(SECRET)).not.toBe(csrfTokenOf(SECRET.replace('A', 'B')));
    expect(csrfTokenOf(SECRET)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(csrfTokenOf(SECRET)).not.toContain(SECRET);
  });

  it('is needed for every method but GET, HEAD and OPTIONS', () => {
    expect(['GET', 'HEAD', 'OPTIONS', 'get'].map(needsCsrfToken)).toEqual([false, false, false, false]);
    expect(['POST', 'PUT', 'PATCH', 'DELETE', 'PURGE'].map(needsCsrfToken)).toEqual([true, true, true, true, true]);
  });

  it('matches only the session\'s own token', () => {
    expect(csrfTokenMatches(SECRET, csrfTokenOf(SECRET))).toBe(true);
    expect(csrfTokenMatches(SECRET, ` ${csrfTokenOf(SECRET)} `)).toBe(true);
    expect(csrfTokenMatches(SECRET, undefined)).toBe(false);
    expect(csrfTokenMatches(SECRET, '')).toBe(false);
    expect(csrfTokenMatches(SECRET, SECRET)).toBe(false);
    expect(csrfTokenMatches(SECRET, csrfTokenOf(`${SECRET}x`))).toBe(false);
    expect(csrfTokenMatches(SECRET, [csrfTokenOf(SECRET), csrfTokenOf(SECRET)])).toBe(false);
  });
});

describe('whether the cookie is Secure', () => {
  it('is, behind an https public base URL, when serving TLS, or when a trusted proxy says https', () => {
    expect(isSecureContext('https://chat.example.com', false, 'http')).toBe(true);
    expect(isSecureContext('http://127.0.0.1:8080', true, 'https')).toBe(true);
    expect(isSecureContext('http://127.0.0.1:8080', false, 'https')).toBe(true);
    expect(isSecureContext('http://127.0.0.1:8080', false, 'http')).toBe(false);
  });
});
