export * from './preflight';
export * from './database';
