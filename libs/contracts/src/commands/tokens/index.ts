export * from './resolve-token';
