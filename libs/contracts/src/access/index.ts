export * from './access-model';
