export * from './resolve-token';
export * from './user-tokens';
