import { decideServing, LinkCheck, linkRevoked, LINK_REVOKED, LINK_UNDATED } from './serving-decision';

describe('decideServing', () => {
  const pub = { found: true as const, privacy: 'public' as const, mayRead: true, fileLinksRevokedAt: null };
  const priv = (mayRead: boolean, fileLinksRevokedAt: string | null = null) => ({ found: true as const, privacy: 'private' as const, mayRead, fileLinksRevokedAt });
  const nobody = { credentials: false };
  const judged = { credentials: true, judged: true };
  /** A link issued at 1,000 s (UNIX), living `expiresIn` more seconds. */
  const link = (check: LinkCheck, expiresIn = 0, issuedAt: number | null = 1_000) => ({ check, issuedAt, expiresIn });
  /** An ISO instant `seconds` after the UNIX epoch. */
  const at = (seconds: number) => new Date(seconds * 1000).toISOString();

  it('answers 404 for no such file (or a deleted room\'s), whoever asks and however signed', () => {
    for (const check of ['unsigned', 'valid', 'expired'] as const) {
      expect(decideServing({ found: false }, link(check, 60), judged)).toMatchObject({ serve: false, status: 404 });
    }
  });

  it('serves a public room\'s file to anyone, cached publicly a little, whatever its links\' revocation', () => {
    expect(decideServing(pub, link('unsigned'), nobody)).toEqual({ serve: true, cacheControl: 'public, max-age=300' });
    expect(decideServing(pub, link('invalid'), nobody)).toEqual({ serve: true, cacheControl: 'public, max-age=300' });
    expect(decideServing({ ...pub, fileLinksRevokedAt: at(2_000) }, link('valid', 60, null), nobody)).toMatchObject({ serve: true });
  });

  it('serves a private room\'s file by a valid signed link, kept no longer than it lives', () => {
    expect(decideServing(priv(false), link('valid', 42), nobody)).toEqual({ serve: true, cacheControl: 'private, max-age=42' });
  });

  it('serves a private room\'s file by a valid link issued after the room\'s revocation time', () => {
    expect(decideServing(priv(false, at(999.5)), link('valid', 42), nobody)).toEqual({ serve: true, cacheControl: 'private, max-age=42' });
  });

  it('answers 401 "revoked" without credentials to a valid link issued at or before the room\'s revocation time, or undated', () => {
    expect(decideServing(priv(false, at(1_000)), link('valid', 42), nobody)).toEqual({ serve: false, status: 401, message: LINK_REVOKED });
    // Links are dated in whole seconds: issued in the second of the revocation is refused (it may have been before it).
    expect(decideServing(priv(false, at(1_000.7)), link('valid', 42), nobody)).toEqual({ serve: false, status: 401, message: LINK_REVOKED });
    expect(decideServing(priv(false, at(5_000)), link('valid', 42), nobody)).toEqual({ serve: false, status: 401, message: LINK_REVOKED });
    // Made before links had an issue time: revoked, whatever the room's time (a one-time cost at upgrade).
    expect(decideServing(priv(false), link('valid', 42, null), nobody)).toEqual({ serve: false, status: 401, message: LINK_UNDATED });
    expect(LINK_REVOKED).toMatch(/^This file link was revoked: access to its room has changed since it was issued; fetch it with a token .* or a signed-in session\.$/);
  });

  it('judges the credentials beside a revoked link, as without one', () => {
    expect(decideServing(priv(true, at(2_000)), link('valid', 42), judged)).toEqual({ serve: true, cacheControl: 'private, no-cache' });
    expect(decideServing(priv(false, at(2_000)), link('valid', 42), judged)).toMatchObject({ serve: false, status: 404, message: 'File not found.' });
  });

  it('serves a private room\'s file to credentials that may read it, and 404 to others', () => {
    expect(decideServing(priv(true), link('unsigned'), judged)).toEqual({ serve: true, cacheControl: 'private, no-cache' });
    expect(decideServing(priv(false), link('expired'), judged)).toMatchObject({ serve: false, status: 404, message: 'File not found.' });
    expect(decideServing(priv(false), link('unsigned'), { credentials: true, everyRoom: true })).toMatchObject({ serve: true });
    // Credentials nobody judged (a v1 notification token) may not.
    expect(decideServing(priv(true), link('unsigned'), { credentials: true })).toMatchObject({ serve: false, status: 404 });
  });

  it('answers 401 without credentials, saying whether the link expired, is not valid, or was not signed', () => {
    expect(decideServing(priv(false), link('expired'), nobody)).toMatchObject({ serve: false, status: 401, message: expect.stringMatching(/expired/) });
    expect(decideServing(priv(false), link('invalid'), nobody)).toMatchObject({ serve: false, status: 401, message: expect.stringMatching(/not valid/) });
    expect(decideServing(priv(false), link('unsigned'), nobody)).toMatchObject({ serve: false, status: 401, message: expect.stringMatching(/needs credentials/) });
  });
});

describe('linkRevoked', () => {
  it('is true for a link issued at or before the revocation second, or undated; false after it, or when never revoked', () => {
    expect(linkRevoked(1_000, null)).toBe(false);
    expect(linkRevoked(1_000, '1970-01-01T00:16:39.999Z')).toBe(false);
    expect(linkRevoked(1_000, '1970-01-01T00:16:40.000Z')).toBe(true);
    expect(linkRevoked(1_000, '1970-01-01T00:16:40.999Z')).toBe(true);
    expect(linkRevoked(null, null)).toBe(true);
  });
});
