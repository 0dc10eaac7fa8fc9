export * from './amqp-broker';
export * from './topology';
