export * from './webhook-objects';
export * from './views';
export * from './limits';
export * from './webhook-registration';
