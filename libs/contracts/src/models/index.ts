export * from './webhook-objects';
export * from './v1-records';
export * from './limits';
