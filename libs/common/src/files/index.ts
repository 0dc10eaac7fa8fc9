export * from './file-storage';
