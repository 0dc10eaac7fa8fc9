export * from './models';
export * from './rules';
export * from './commands';
export * from './events';
export * from './broker-names';
export * from './access';
