/** A person's chats (rooms and private chats) and what they have read of them: one file per intent. */
export * from './mark-read';
export * from './list-chats';
