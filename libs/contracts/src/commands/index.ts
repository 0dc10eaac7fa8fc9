export * from './define-command';
export * from './command-error';
export * from './refs';
export * from './rooms';
export * from './users';
export * from './tokens';
export * from './webhooks';
export * from './addons';
