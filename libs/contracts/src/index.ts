export * from './models';
export * from './commands';
export * from './events';
export * from './broker-names';
