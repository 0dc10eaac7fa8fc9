export * from './bridge-fields';
export * from './bridges';
export * from './receive-inbound';
export * from './test-bridge';
