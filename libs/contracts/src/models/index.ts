export * from './webhook-objects';
export * from './views';
export * from './limits';
export * from './webhook-event-names';
export * from './webhook-registration';
export * from './scopes';
export * from './bridge';
