import { Module } from '@nestjs/common';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { LiveHub } from './live-hub';
import { LIVE_SETTINGS, LiveSettings } from './live-settings';
import { OpenLiveStream } from './open-live-stream.usecase';

/**
 * Live connections to rooms, API-neutral: the hub (this replica's connections, fed from
 * the events exchange) and the use case that opens one. An API's controller authenticates
 * (v2: a token; the web console: its session, later) and hands the stream its transport.
 */
@Module({
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
  ],
  exports: [OpenLiveStream, LiveHub],
})
export class LiveModule {}
