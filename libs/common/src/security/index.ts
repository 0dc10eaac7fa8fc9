export * from './api-token';
