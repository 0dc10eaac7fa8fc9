import { Module } from '@nestjs/common';
import { PresenceModule } from '../presence/presence.module';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { LiveHub } from './live-hub';
import { LIVE_SETTINGS, LiveSettings } from './live-settings';
import { OpenLiveStream } from './open-live-stream.usecase';
import { OpenUserStream } from './open-user-stream.usecase';

/**
 * Live connections to rooms and people's streams, API-neutral: the hub (this replica's
 * connections, fed from the events exchange) and the use cases that open them. An API's controller authenticates
 * (a v2 token, or the web console's session) and hands the stream its transport.
 */
@Module({
  imports: [PresenceModule],
  providers: [
    {
      provide: LIVE_SETTINGS,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayConfig): LiveSettings => ({
        heartbeatMs: config.LIVE_HEARTBEAT_SECONDS * 1000,
        maxPendingBytes: config.LIVE_MAX_PENDING_BYTES,
        connectTimeoutMs: config.STARTUP_TIMEOUT_SECONDS * 1000,
        lingerMs: 30_000,
      }),
    },
    LiveHub,
    OpenLiveStream,
    OpenUserStream,
  ],
  exports: [OpenLiveStream, OpenUserStream, LiveHub],
})
export class LiveModule {}
