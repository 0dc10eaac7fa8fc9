export * from './text';
export * from './fields';
