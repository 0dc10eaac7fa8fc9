import { decideServing } from './serving-decision';

describe('decideServing', () => {
  const pub = { found: true as const, privacy: 'public' as const, mayRead: true };
  const priv = (mayRead: boolean) => ({ found: true as const, privacy: 'private' as const, mayRead });
  const nobody = { credentials: false };
  const judged = { credentials: true, judged: true };

  it('answers 404 for no such file (or a deleted room\'s), whoever asks and however signed', () => {
    for (const link of ['unsigned', 'valid', 'expired'] as const) {
      expect(decideServing({ found: false }, link, judged, 60)).toMatchObject({ serve: false, status: 404 });
    }
  });

  it('serves a public room\'s file to anyone, cached publicly a little', () => {
    expect(decideServing(pub, 'unsigned', nobody, 0)).toEqual({ serve: true, cacheControl: 'public, max-age=300' });
    expect(decideServing(pub, 'invalid', nobody, 0)).toEqual({ serve: true, cacheControl: 'public, max-age=300' });
  });

  it('serves a private room\'s file by a valid signed link, kept no longer than it lives', () => {
    expect(decideServing(priv(false), 'valid', nobody, 42)).toEqual({ serve: true, cacheControl: 'private, max-age=42' });
  });

  it('serves a private room\'s file to credentials that may read it, and 404 to others', () => {
    expect(decideServing(priv(true), 'unsigned', judged, 0)).toEqual({ serve: true, cacheControl: 'private, no-cache' });
    expect(decideServing(priv(false), 'expired', judged, 0)).toMatchObject({ serve: false, status: 404, message: 'File not found.' });
    expect(decideServing(priv(false), 'unsigned', { credentials: true, everyRoom: true }, 0)).toMatchObject({ serve: true });
    // Credentials nobody judged (a v1 notification token) may not.
    expect(decideServing(priv(true), 'unsigned', { credentials: true }, 0)).toMatchObject({ serve: false, status: 404 });
  });

  it('answers 401 without credentials, saying whether the link expired, is not valid, or was not signed', () => {
    expect(decideServing(priv(false), 'expired', nobody, 0)).toMatchObject({ serve: false, status: 401, message: expect.stringMatching(/expired/) });
    expect(decideServing(priv(false), 'invalid', nobody, 0)).toMatchObject({ serve: false, status: 401, message: expect.stringMatching(/not valid/) });
    expect(decideServing(priv(false), 'unsigned', nobody, 0)).toMatchObject({ serve: false, status: 401, message: expect.stringMatching(/needs credentials/) });
  });
});
