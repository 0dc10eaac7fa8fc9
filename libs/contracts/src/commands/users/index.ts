/** Commands of users: one file per intent. */
export * from './create-user';
export * from './update-user';
export * from './delete-user';
export * from './get-user';
export * from './list-users';
export * from './send-private-message';
export * from './get-private-history';
export * from './sign-in';
export * from './invitation';
export * from './get-user-holdings';
