export * from './config';
export * from './logging';
export * from './security';
export * from './infra';
export * from './amqp';
export * from './http';
export * from './observability';
export * from './tracing';
