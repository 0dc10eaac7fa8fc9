export * from './bridge-fields';
export * from './bridges';
