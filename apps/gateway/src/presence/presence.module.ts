import { Module } from '@nestjs/common';
import { APP_LOGGER, AppLogger } from '@app/common';
import type Redis from 'ioredis';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { REDIS_CLIENT } from '../shared/di-tokens';
import { ConsolePresence } from './console-presence';
import { RoomsPresenceMoves } from './rooms-presence-moves';

/** A connection not refreshed for this long (its replica gone) counts as closed. */
const PRESENCE_TTL_MS = 45_000;

/** Who has a room open in the console, shared by the gateway replicas through Redis. */
@Module({
  providers: [
    RoomsPresenceMoves,
    {
      provide: ConsolePresence,
      inject: [REDIS_CLIENT, RoomsPresenceMoves, APP_LOGGER, GATEWAY_CONFIG],
      useFactory: (redis: Redis, moves: RoomsPresenceMoves, logger: AppLogger, config: GatewayConfig) => {
        const presence = new ConsolePresence(redis, moves, logger, { namespace: config.BROKER_NAMESPACE, ttlMs: PRESENCE_TTL_MS });
        presence.start();
        return presence;
      },
    },
  ],
  exports: [ConsolePresence],
})
export class PresenceModule {}
