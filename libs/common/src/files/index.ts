export * from './file-storage';
export * from './stored-names';
