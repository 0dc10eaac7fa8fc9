export * from './preflight';
export * from './database';
export * from './prepared';
export * from './explained-error';
export * from './redis-client';
export * from './redis-outage-notice';
