export * from './command-error';
export * from './rooms.v1';
export * from './users.v1';
export * from './tokens.v1';
