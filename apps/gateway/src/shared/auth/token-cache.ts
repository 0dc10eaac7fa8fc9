import type { AuthenticatedToken } from '@app/contracts';

export interface TokenCacheOptions {
  /** How long an answer is trusted without a notice: a safety net, revocation notices come first. */
  ttlMs: number;
  /** How long "no such token" is remembered (unknown tokens are cheap to ask about again). */
  negativeTtlMs: number;
  /** Most entries kept; the oldest go first. */
  maxEntries: number;
  now?: () => number;
}

interface Entry {
  token: AuthenticatedToken | null;
  expiresAt: number;
}

/**
 * What the rooms service answered for each token hash, so that a request costs no broker
 * round trip to authenticate. Revocation notices evict by token id, and the whole cache is
 * cleared whenever notices may have been missed.
 *
 * `lookup` shares one question per hash among concurrent requests, and does not keep an
 * answer that a revocation (or a clear) may have overtaken while it was on its way.
 */
export class TokenCache {
  private readonly entries = new Map<string, Entry>();
  private readonly hashesById = new Map<number, Set<string>>();
  /** The hashes of the tokens that act as each user (personal tokens, sessions). */
  private readonly hashesByUser = new Map<number, Set<string>>();
  private readonly inFlight = new Map<string, Promise<AuthenticatedToken | null>>();
  /** Bumped by every eviction and clear: answers asked for before it are not kept. */
  private epoch = 0;
  private readonly now: () => number;

  constructor(private readonly options: TokenCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached answer: a token, null for "no such token", undefined when not cached. */
  get(hash: string): AuthenticatedToken | null | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.delete(hash);
      return undefined;
    }
    return entry.token;
  }

  /** The cached answer, or `resolve`'s (one call per hash however many requests wait for it). */
  async lookup(hash: string, resolve: (hash: string) => Promise<AuthenticatedToken | null>): Promise<AuthenticatedToken | null> {
    const cached = this.get(hash);
    if (cached !== undefined) return cached;
    const pending = this.inFlight.get(hash);
    if (pending) return pending;
    const epoch = this.epoch;
    const question = resolve(hash).then((token) => {
      if (this.epoch === epoch) this.set(hash, token);
      return token;
    }).finally(() => {
      if (this.inFlight.get(hash) === question) this.inFlight.delete(hash);
    });
    this.inFlight.set(hash, question);
    return question;
  }

  set(hash: string, token: AuthenticatedToken | null): void {
    this.delete(hash);
    const ttl = token ? this.options.ttlMs : this.options.negativeTtlMs;
    // A token that expires (a session, an add-on token) is not trusted past its expiry.
    const ends = token?.expires ? Date.parse(token.expires) : NaN;
    this.entries.set(hash, { token, expiresAt: Number.isNaN(ends) ? this.now() + ttl : Math.min(this.now() + ttl, ends) });
    if (token) {
      index(this.hashesById, token.id, hash);
      if (token.userId !== null) index(this.hashesByUser, token.userId, hash);
    }
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.delete(oldest);
    }
  }

  /** A token was revoked: forget it, and any answer about it still on its way. */
  evictTokenId(tokenId: number): void {
    this.epoch++;
    this.inFlight.clear();
    for (const hash of [...(this.hashesById.get(tokenId) ?? [])]) this.delete(hash);
  }

  /**
   * A user changed (a demotion takes `admin_group` from their tokens' scopes, which are
   * worked out when a token is resolved): forget every token that acts as them, and any
   * answer still on its way.
   */
  evictUser(userId: number): void {
    this.epoch++;
    this.inFlight.clear();
    for (const hash of [...(this.hashesByUser.get(userId) ?? [])]) this.delete(hash);
  }

  /** Notices may have been missed (a reconnection): trust nothing cached. */
  clear(): void {
    this.epoch++;
    this.inFlight.clear();
    this.entries.clear();
    this.hashesById.clear();
    this.hashesByUser.clear();
  }

  private delete(hash: string): void {
    const entry = this.entries.get(hash);
    if (!entry) return;
    this.entries.delete(hash);
    if (entry.token) {
      unindex(this.hashesById, entry.token.id, hash);
      if (entry.token.userId !== null) unindex(this.hashesByUser, entry.token.userId, hash);
    }
  }
}

function index(by: Map<number, Set<string>>, key: number, hash: string): void {
  let hashes = by.get(key);
  if (!hashes) by.set(key, (hashes = new Set()));
  hashes.add(hash);
}

function unindex(by: Map<number, Set<string>>, key: number, hash: string): void {
  const hashes = by.get(key);
  hashes?.delete(hash);
  if (hashes && hashes.size === 0) by.delete(key);
}
