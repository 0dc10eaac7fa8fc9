/** Commands of rooms: one file per intent, each serving every API version that needs it. */
export * from './create-room';
export * from './delete-room';
export * from './get-room';
export * from './list-rooms';
export * from './get-history';
export * from './send-notification';
export * from './set-topic';
