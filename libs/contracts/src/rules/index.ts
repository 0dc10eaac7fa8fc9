export * from './text';
export * from './fields';
export * from './history-dates';
export * from './card';
export * from './message-links';
export * from './webhook-pattern';
export * from './request-body';
export * from './notification-body';
