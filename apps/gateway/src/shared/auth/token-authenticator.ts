import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { AmqpBroker, APP_LOGGER, AppLogger, hashApiToken } from '@app/common';
import {
  AuthenticatedToken, EventEnvelope, ResolveTokenV1, TokenRevokedV1, TokenRevokedV1Payload, UserChangedV1Payload, UserDeletedV1, UserUpdatedV1,
} from '@app/contracts';
import { AMQP_BROKER } from '../di-tokens';
import { RoomsClient } from '../rooms-client';
import { TokenCache } from './token-cache';

/** A safety net only: a revocation reaches every replica within a second by its notice. */
export const TOKEN_CACHE_TTL_MS = 60_000;
const NEGATIVE_TTL_MS = 5_000;
const MAX_CACHED_TOKENS = 10_000;

/**
 * Which token a client presented, answered from the cache when possible: a request then
 * costs one broker round trip (its command), and a cache miss one more, the first time.
 * Every replica listens for `token.revoked.v1` on a queue of its own and forgets the token
 * at once; for `user.updated.v1` and `user.deleted.v1` it forgets every token acting as
 * that user (a demoted group admin's scopes lose `admin_group` when next resolved); after a
 * reconnection it forgets everything, as notices may have been missed.
 */
@Injectable()
export class TokenAuthenticator implements OnModuleInit {
  readonly cache = new TokenCache({ ttlMs: TOKEN_CACHE_TTL_MS, negativeTtlMs: NEGATIVE_TTL_MS, maxEntries: MAX_CACHED_TOKENS });
  private readonly revokedListeners: Array<(tokenId: number) => void> = [];

  constructor(
    private readonly rooms: RoomsClient,
    @Inject(AMQP_BROKER) private readonly broker: Pick<AmqpBroker, 'subscribeTransient'>,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  async onModuleInit(): Promise<void> {
    const userChanges = [UserUpdatedV1.routingKey, UserDeletedV1.routingKey];
    await this.broker.subscribeTransient([TokenRevokedV1.routingKey, ...userChanges], (envelope, routingKey) => {
      if (userChanges.includes(routingKey)) this.onUserChanged(envelope);
      else this.onRevoked(envelope);
    }, () => {
      this.cache.clear();
      this.logger.debug('revocation notices (re)subscribed; token cache cleared');
    });
  }

  /**
   * Told each token id revoked (a session signed out, a token revoked): what a request
   * already under way holds (a live connection) can end too.
   */
  whenRevoked(listener: (tokenId: number) => void): void {
    this.revokedListeners.push(listener);
  }

  /**
   * A token this replica revoked itself (a sign-out, DELETE /v2/token): forgotten here before
   * the answer, so the client's next request, to this replica, is refused; the notice, already
   * published, reaches the other replicas. Forgetting twice does no harm.
   */
  revoked(tokenId: number): void {
    this.cache.evictTokenId(tokenId);
    for (const listener of this.revokedListeners) listener(tokenId);
  }

  /** The token with this clear text as this replica's cache knows it, without asking: undefined when it does not know. */
  cached(clearToken: string): AuthenticatedToken | null | undefined {
    return this.cache.get(hashApiToken(clearToken));
  }

  /** The token with this clear text, or null when there is none (or it was revoked). */
  authenticate(clearToken: string): Promise<AuthenticatedToken | null> {
    return this.cache.lookup(hashApiToken(clearToken), async (tokenHash) => (await this.rooms.send(ResolveTokenV1, { tokenHash })).token);
  }

  private onUserChanged(envelope: EventEnvelope): void {
    const userId = (envelope.payload as Partial<UserChangedV1Payload> | undefined)?.user?.id;
    if (typeof userId === 'number') {
      this.cache.evictUser(userId);
    } else {
      this.cache.clear();
      this.logger.warn({ eventId: envelope?.id }, 'unreadable user change notice; token cache cleared');
    }
  }

  private onRevoked(envelope: EventEnvelope): void {
    const tokenId = (envelope.payload as Partial<TokenRevokedV1Payload> | undefined)?.tokenId;
    if (typeof tokenId === 'number') {
      this.revoked(tokenId);
      this.logger.info({ tokenId }, 'token revoked; dropped from the cache');
    } else {
      // A notice we cannot read still says that some token was revoked.
      this.cache.clear();
      this.logger.warn({ eventId: envelope?.id }, 'unreadable token.revoked notice; token cache cleared');
    }
  }
}
