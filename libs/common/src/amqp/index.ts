export * from './connect';
export * from './amqp-broker';
export * from './topology';
export * from './rpc';
export * from './command-server';
export * from './coalesce-writes';
export * from './command-pipe';
export * from './queue-arguments';
