import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { CommandContext } from '@app/common';
import { ListChatsV1, MarkPrivateChatReadV1, MarkRoomReadV1, RequestOf } from '@app/contracts';
import { CommandPipe } from '../shared/command-pipe';
import { ListChats } from './list-chats/list-chats.usecase';
import { MarkPrivateChatRead } from './mark-private-chat-read/mark-private-chat-read.usecase';
import { MarkRoomRead } from './mark-room-read/mark-room-read.usecase';

/** Transport edge: each command, parsed with its contract's schema, goes to its use case. */
@Controller()
export class ChatsHandlers {
  constructor(
    private readonly markRoomRead: MarkRoomRead,
    private readonly markPrivateChatRead: MarkPrivateChatRead,
    private readonly listChats: ListChats,
  ) {}

  @MessagePattern(MarkRoomReadV1.pattern)
  markRoom(@Payload(new CommandPipe(MarkRoomReadV1)) c: RequestOf<typeof MarkRoomReadV1>, @Ctx() ctx: CommandContext) { return this.markRoomRead.execute(c, ctx.meta); }

  @MessagePattern(MarkPrivateChatReadV1.pattern)
  markPrivate(@Payload(new CommandPipe(MarkPrivateChatReadV1)) c: RequestOf<typeof MarkPrivateChatReadV1>, @Ctx() ctx: CommandContext) { return this.markPrivateChatRead.execute(c, ctx.meta); }

  @MessagePattern(ListChatsV1.pattern)
  list(@Payload(new CommandPipe(ListChatsV1)) c: RequestOf<typeof ListChatsV1>) { return this.listChats.execute(c); }
}
