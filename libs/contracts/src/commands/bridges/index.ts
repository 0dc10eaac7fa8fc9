export * from './bridge-fields';
export * from './bridges';
export * from './receive-inbound';
