import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, DiscoveryModule } from '@nestjs/core';
import type { AppLogger } from '@app/common';
import { GatewayConfig } from './config';
import { ConsoleModule } from './console/console.module';
import { DocsController, HealthController } from './docs/docs.controller';
import { V2DocsController } from './docs/v2-docs.controller';
import { FallbackFilter } from './fallback.filter';
import { SharedModule } from './shared/shared.module';
import { V1Module } from './v1/v1.module';
import { V2Module } from './v2/v2.module';

/** The HTTP gateway: the shared core, one module per API version, the documentation pages and the web console. */
@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig, logger: AppLogger): DynamicModule {
    return {
      module: GatewayModule,
      imports: [SharedModule.forRoot(config, logger), DiscoveryModule, V1Module, V2Module, ConsoleModule],
      controllers: [DocsController, HealthController, V2DocsController],
      providers: [{ provide: APP_FILTER, useClass: FallbackFilter }],
    };
  }
}
