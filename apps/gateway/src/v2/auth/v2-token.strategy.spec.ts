import { presentedToken } from './v2-token.strategy';

describe('presentedToken', () => {
  const req = (authorization?: string, query: Record<string, unknown> = {}) => ({ headers: { authorization }, query }) as never;

  it('reads a Bearer token, whatever the case of the scheme', () => {
    expect(presentedToken(req('Bearer abc'))).toBe('abc');
    expect(presentedToken(req('bearer  abc '))).toBe('abc');
  });

  it('falls back to auth_token in the query string', () => {
    expect(presentedToken(req(undefined, { auth_token: 'q' }))).toBe('q');
    expect(presentedToken(req('Basic xyz', { auth_token: 'q' }))).toBe('q');
  });

  it('treats an empty token as none (clients send ?auth_token=&token= to public routes)', () => {
    expect(presentedToken(req(undefined, { auth_token: '' }))).toBeUndefined();
    expect(presentedToken(req('Bearer '))).toBeUndefined();
  });
});
