import type { AuthenticatedToken } from '@app/contracts';
import { TokenCache } from './token-cache';

const A: AuthenticatedToken = { id: 1, kind: 'admin', label: 'a', userId: null, roomId: null, scopes: [] };
const B: AuthenticatedToken = { id: 2, kind: 'notification', label: 'b', userId: null, roomId: null, scopes: [] };

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

describe('TokenCache', () => {
  let now: number;
  let cache: TokenCache;
  beforeEach(() => {
    now = 1_000_000;
    cache = new TokenCache({ ttlMs: 60_000, negativeTtlMs: 5_000, maxEntries: 3, now: () => now });
  });

  it('asks once per hash, then answers from memory', async () => {
    const resolve = jest.fn(async (hash: string) => (hash === 'ha' ? A : null));
    expect(await cache.lookup('ha', resolve)).toEqual(A);
    expect(await cache.lookup('ha', resolve)).toEqual(A);
    expect(await cache.lookup('unknown', resolve)).toBeNull();
    expect(await cache.lookup('unknown', resolve)).toBeNull();
    expect(resolve).toHaveBeenCalledTimes(2);
  });

  it('shares one question among concurrent lookups of the same hash', async () => {
    const answer = deferred<AuthenticatedToken | null>();
    const resolve = jest.fn(() => answer.promise);
    const lookups = [cache.lookup('ha', resolve), cache.lookup('ha', resolve), cache.lookup('ha', resolve)];
    answer.resolve(A);
    expect(await Promise.all(lookups)).toEqual([A, A, A]);
    expect(resolve).toHaveBeenCalledTimes(1);
  });

  it('forgets answers after their time to live (a short one for unknown tokens)', async () => {
    cache.set('ha', A);
    cache.set('hx', null);
    now += 5_000;
    expect(cache.get('hx')).toBeUndefined();
    expect(cache.get('ha')).toEqual(A);
    now += 55_000;
    expect(cache.get('ha')).toBeUndefined();
  });

  it('does not keep a token that expires (a session) past its expiry', () => {
    cache.set('hs', { ...A, id: 7, kind: 'session', expires: new Date(now + 10_000).toISOString() });
    cache.set('hl', { ...A, id: 8, kind: 'session', expires: new Date(now + 3_600_000).toISOString() });
    now += 10_000;
    expect(cache.get('hs')).toBeUndefined();
    expect(cache.get('hl')).toMatchObject({ id: 8 });
    now += 50_000;
    expect(cache.get('hl')).toBeUndefined(); // the safety expiry still holds
  });

  it('evicts every hash of a revoked token id, and only those', () => {
    cache.set('ha', A);
    cache.set('hb', B);
    cache.evictTokenId(1);
    expect(cache.get('ha')).toBeUndefined();
    expect(cache.get('hb')).toEqual(B);
    cache.evictTokenId(99);
    expect(cache.get('hb')).toEqual(B);
  });

  it('evicts every token acting as a user (personal tokens, sessions), and only those', async () => {
    const p1: AuthenticatedToken = { id: 3, kind: 'personal', label: 'p', userId: 7, roomId: null, scopes: ['admin_group'] };
    const s1: AuthenticatedToken = { ...p1, id: 4, kind: 'session' };
    cache.set('hp', p1);
    cache.set('hs', s1);
    cache.set('ha', A);
    cache.evictUser(7);
    expect([cache.get('hp'), cache.get('hs'), cache.get('ha')]).toEqual([undefined, undefined, A]);
    // An answer about the user still on its way is not kept either.
    const stale = deferred<AuthenticatedToken | null>();
    const asked = cache.lookup('hp', () => stale.promise);
    cache.evictUser(7);
    stale.resolve(p1);
    await asked;
    expect(cache.get('hp')).toBeUndefined();
    // Evicting by token id keeps the by-user index right (and the reverse).
    cache.set('hp', p1);
    cache.evictTokenId(3);
    cache.set('hs', s1);
    cache.evictUser(7);
    expect(cache.size).toBe(1);
  });

  it('does not keep an answer that a revocation overtook on its way', async () => {
    const stale = deferred<AuthenticatedToken | null>();
    const first = cache.lookup('ha', () => stale.promise);
    cache.evictTokenId(1);
    stale.resolve(A);
    expect(await first).toEqual(A); // asked before the revocation: answered as it was then
    const fresh = jest.fn(async () => null);
    expect(await cache.lookup('ha', fresh)).toBeNull(); // but not kept: the next request asks again
    expect(fresh).toHaveBeenCalledTimes(1);
  });

  it('does not let a request after a revocation join a question asked before it', async () => {
    const stale = deferred<AuthenticatedToken | null>();
    void cache.lookup('ha', () => stale.promise);
    cache.evictTokenId(1);
    const fresh = jest.fn(async () => null);
    const after = cache.lookup('ha', fresh);
    stale.resolve(A);
    expect(await after).toBeNull();
    expect(fresh).toHaveBeenCalledTimes(1);
  });

  it('clears everything, including answers on their way (after a reconnection)', async () => {
    cache.set('ha', A);
    cache.set('hb', B);
    const pending = deferred<AuthenticatedToken | null>();
    const lookup = cache.lookup('hc', () => pending.promise);
    cache.clear();
    pending.resolve({ id: 3, kind: 'admin', label: 'c', userId: null, roomId: null, scopes: [] });
    await lookup;
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries, dropping the oldest', () => {
    cache.set('h1', { ...A, id: 11 });
    cache.set('h2', { ...A, id: 12 });
    cache.set('h3', { ...A, id: 13 });
    cache.set('h4', { ...A, id: 14 });
    expect(cache.size).toBe(3);
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h4')).toMatchObject({ id: 14 });
  });

  it('does not cache a failed question', async () => {
    await expect(cache.lookup('ha', async () => { throw new Error('broker down'); })).rejects.toThrow('broker down');
    expect(await cache.lookup('ha', async () => A)).toEqual(A);
  });
});
