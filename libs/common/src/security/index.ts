export * from './api-token';
export * from './secret-box';
