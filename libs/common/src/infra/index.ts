export * from './preflight';
export * from './database';
export * from './prepared';
