import { createHash } from 'node:crypto';
import { RateLimitState, secondsUntil } from '../../shared/rate-limit/rate-limit';
import type { RequestRateLimiter } from '../../shared/rate-limit/request-rate-limiter';
import { addressKey } from '../../shared/rate-limit/client-address';

/**
 * The budgets a sign-in guess is taken from: the account from this address (small, so that
 * an attacker's address is soon refused), the account from anywhere (larger and slower: many
 * addresses together cannot guess fast, and one address alone cannot lock the real user out),
 * and the address across accounts (one address trying many accounts).
 */
export const BUDGETS = ['accountAddress', 'account', 'address'] as const;
export type Budget = typeof BUDGETS[number];

export type SignInLimiters = Record<Budget, Pick<RequestRateLimiter, 'consume' | 'refund' | 'forget' | 'limit' | 'windowSeconds'>>;

/** A guess counted in every budget before its password is checked. */
export interface Guess { email: string; address: string; counts: Record<Budget, RateLimitState> }

export type GuessVerdict = { allowed: true; guess: Guess } | { allowed: false; by: Budget; retryAfterSeconds: number };

/** A budget that a failed guess has just spent: the account (from the address) is refused until it resets. */
export interface SpentBudget { by: Budget; limit: number; windowSeconds: number; retryAfterSeconds: number }

/**
 * Which budget refuses a guess so counted, if any: past its limit (this guess included). When
 * several do, the one that resets last, as Retry-After must hold for all of them.
 */
export function refusingBudget(counts: Partial<Record<Budget, RateLimitState>>, nowMs: number): { by: Budget; retryAfterSeconds: number } | null {
  const over = BUDGETS.filter((b) => counts[b]?.exceeded);
  if (over.length === 0) return null;
  const by = over.reduce((a, b) => (counts[b]!.reset > counts[a]!.reset ? b : a));
  return { by, retryAfterSeconds: secondsUntil(counts[by]!.reset, nowMs) };
}

/** The budgets a failed guess has used up (it took their last count). */
export function spentBy(counts: Record<Budget, RateLimitState>, limiters: Pick<SignInLimiters, Budget>, nowMs: number): SpentBudget[] {
  return BUDGETS.filter((b) => !counts[b].exceeded && counts[b].remaining === 0).map((b) => ({
    by: b, limit: counts[b].limit, windowSeconds: limiters[b].windowSeconds, retryAfterSeconds: secondsUntil(counts[b].reset, nowMs),
  }));
}

/** An account's key: the address lower-cased and hashed, so that no e-mail address rests in Redis. */
export function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('hex').slice(0, 32);
}

/**
 * The console's sign-in throttle. A guess is counted in all three budgets before its password
 * is checked (see `take`), each count one atomic INCR in Redis (RequestRateLimiter: shared by every gateway
 * replica, in memory per replica while Redis is down), so concurrent guesses cannot buy more
 * checks than a budget holds: only the guesses that found every count within its limit are
 * checked. A refused guess gives its counts back (it checked nothing), and so does one whose
 * check never answered. A success gives its counts back and forgets the account's failures from
 * that address; failures from elsewhere, and the address's, stay counted.
 */
export class SignInThrottle {
  constructor(private readonly limiters: SignInLimiters, private readonly now: () => number = Date.now) {}

  /**
   * Counts a guess of this account from this client address, or says which budget refuses it.
   * The account-wide budget is taken only once the address's own budgets let the guess through:
   * guesses an address is refused, however many it keeps in flight, never touch the count
   * that guesses from other addresses read (one more Redis round trip, on sign-ins only).
   */
  async take(email: string, clientAddress: string): Promise<GuessVerdict> {
    const subjects = this.subjects(email, clientAddress);
    const [accountAddress, address] = await Promise.all([
      this.limiters.accountAddress.consume(subjects.accountAddress), this.limiters.address.consume(subjects.address),
    ]);
    const local = refusingBudget({ accountAddress, address }, this.now());
    if (local) {
      await Promise.all([
        this.limiters.accountAddress.refund(subjects.accountAddress, accountAddress), this.limiters.address.refund(subjects.address, address),
      ]);
      return { allowed: false, ...local };
    }
    const guess: Guess = { email, address: clientAddress, counts: { accountAddress, address, account: await this.limiters.account.consume(subjects.account) } };
    const refusal = refusingBudget(guess.counts, this.now());
    if (!refusal) return { allowed: true, guess };
    await this.giveBack(guess);
    return { allowed: false, ...refusal };
  }

  /** The password was right: the guess is given back, and the account's failures from this address forgotten. */
  async succeeded(guess: Guess): Promise<void> {
    const subjects = this.subjects(guess.email, guess.address);
    await Promise.all([
      this.limiters.accountAddress.forget(subjects.accountAddress),
      this.limiters.account.refund(subjects.account, guess.counts.account),
      this.limiters.address.refund(subjects.address, guess.counts.address),
    ]);
  }

  /** The password was wrong: the guess stays counted. Says which budgets it has just spent. */
  failed(guess: Guess): SpentBudget[] {
    return spentBy(guess.counts, this.limiters, this.now());
  }

  /** The check did not answer (the rooms service failed): nothing was learnt, the guess is given back. */
  async giveBack(guess: Guess): Promise<void> {
    const subjects = this.subjects(guess.email, guess.address);
    await Promise.all(BUDGETS.map((b) => this.limiters[b].refund(subjects[b], guess.counts[b])));
  }

  private subjects(email: string, clientAddress: string): Record<Budget, string> {
    const account = accountKey(email);
    const address = addressKey(clientAddress);
    return { accountAddress: `${account}@${address}`, account, address };
  }
}
