export * from './preflight';
