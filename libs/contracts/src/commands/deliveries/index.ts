export * from './delivery-fields';
export * from './delivery-view';
export * from './find-deliveries';
export * from './redeliver';
export * from './delivery-stats';
