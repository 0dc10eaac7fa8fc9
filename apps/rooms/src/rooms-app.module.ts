import { DynamicModule, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { APP_LOGGER, AmqpBroker, AppLogger } from '@app/common';
import { brokerNames } from '@app/contracts';
import { DataSource } from 'typeorm';
import { ROOMS_CONFIG, RoomsConfig } from './config';
import { RoomsController, TokensController, UsersController } from './controllers';
import { openDatabase } from './database/database';
import { PresentationContext } from './domain/presenters';
import { CommandLogInterceptor, RoomsLifecycle } from './lifecycle';
import { OutboxRelay } from './outbox/outbox-relay';
import { OutboxTransaction } from './outbox/outbox-transaction';
import { RoomsService } from './rooms/rooms.service';
import { TokensService } from './tokens/tokens.service';
import { PRESENTATION } from './tokens-di';
import { UsersService } from './users/users.service';

@Module({})
export class RoomsAppModule {
  static forRoot(config: RoomsConfig, logger: AppLogger): DynamicModule {
    const presentation: PresentationContext = {
      baseUrl: config.PUBLIC_BASE_URL.replace(/\/+$/, ''),
      xmppMucDomain: config.XMPP_MUC_DOMAIN,
      groupId: 1,
    };
    return {
      module: RoomsAppModule,
      controllers: [RoomsController, UsersController, TokensController],
      providers: [
        { provide: ROOMS_CONFIG, useValue: config },
        { provide: APP_LOGGER, useValue: logger },
        { provide: PRESENTATION, useValue: presentation },
        { provide: DataSource, useFactory: () => openDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE) },
        {
          provide: AmqpBroker,
          useFactory: () => AmqpBroker.connect(config.AMQP_URL, brokerNames(config.BROKER_NAMESPACE), logger,
            config.STARTUP_TIMEOUT_SECONDS * 1000),
        },
        {
          provide: OutboxRelay,
          inject: [DataSource, AmqpBroker],
          useFactory: (db: DataSource, broker: AmqpBroker) =>
            new OutboxRelay(db, broker.createEventPublisher(), logger, config.OUTBOX_POLL_MS),
        },
        OutboxTransaction,
        RoomsService,
        UsersService,
        TokensService,
        RoomsLifecycle,
        { provide: APP_INTERCEPTOR, useClass: CommandLogInterceptor },
      ],
    };
  }
}
