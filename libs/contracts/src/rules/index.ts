export * from './text';
export * from './http-url';
export * from './fields';
export * from './card';
export * from './message-links';
export * from './webhook-pattern';
export * from './request-body';
export * from './notification-body';
