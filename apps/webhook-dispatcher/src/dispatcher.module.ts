import { DynamicModule, Module } from '@nestjs/common';
import { APP_LOGGER, AmqpBroker, AppLogger } from '@app/common';
import { brokerNames } from '@app/contracts';
import { DispatcherConfig } from './config';
import { DISPATCHER_CONFIG, EventsConsumer } from './events.consumer';

@Module({})
export class DispatcherModule {
  static forRoot(config: DispatcherConfig, logger: AppLogger): DynamicModule {
    return {
      module: DispatcherModule,
      providers: [
        { provide: DISPATCHER_CONFIG, useValue: config },
        { provide: APP_LOGGER, useValue: logger },
        {
          provide: AmqpBroker,
          useFactory: () => AmqpBroker.connect(config.AMQP_URL, brokerNames(config.BROKER_NAMESPACE), logger,
            config.STARTUP_TIMEOUT_SECONDS * 1000),
        },
        EventsConsumer,
      ],
    };
  }
}
