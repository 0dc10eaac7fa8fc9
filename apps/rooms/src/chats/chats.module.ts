import { Module } from '@nestjs/common';
import { ChatsHandlers } from './chats.handlers';
import { ListChats } from './list-chats/list-chats.usecase';
import { MarkPrivateChatRead } from './mark-private-chat-read/mark-private-chat-read.usecase';
import { MarkRoomRead } from './mark-room-read/mark-room-read.usecase';

/**
 * A person's chats (the rooms they are in and their private chats) and what they have read
 * of each, kept per user. Its repository (ChatRepository) comes from the RepositoriesModule.
 */
@Module({
  controllers: [ChatsHandlers],
  providers: [MarkRoomRead, MarkPrivateChatRead, ListChats],
})
export class ChatsModule {}
