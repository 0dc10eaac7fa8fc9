import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AmqpBroker, AppLogger, CommandErrorPassthrough } from '@app/common';
import { DataSource } from 'typeorm';
import { AddonsModule } from './addons/addons.module';
import { AuditModule } from './audit/audit.module';
import { BridgesModule } from './bridges/bridges.module';
import { RoomsConfig } from './config';
import { RoomsLifecycle } from './lifecycle';
import { RoomsModule } from './rooms/rooms.module';
import { InfrastructureModule } from './shared/infrastructure.module';
import { RepositoriesModule } from './shared/repositories.module';
import { TokensModule } from './tokens/tokens.module';
import { UsersModule } from './users/users.module';
import { ChatsModule } from './chats/chats.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** The rooms service: one module per aggregate, over the shared infrastructure. */
@Module({})
export class RoomsAppModule {
  /** The database and broker are opened by bootstrap (the broker also carries the commands). */
  static forRoot(config: RoomsConfig, logger: AppLogger, db: DataSource, broker: AmqpBroker): DynamicModule {
    return {
      module: RoomsAppModule,
      imports: [
        InfrastructureModule.forRoot(config, logger, db, broker),
        RepositoriesModule,
        RoomsModule, UsersModule, ChatsModule, WebhooksModule, BridgesModule, AddonsModule, TokensModule, AuditModule,
      ],
      providers: [
        RoomsLifecycle,
        // Errors reach the command server as thrown: it answers refusals with their CommandError.
        { provide: APP_FILTER, useClass: CommandErrorPassthrough },
      ],
    };
  }
}
