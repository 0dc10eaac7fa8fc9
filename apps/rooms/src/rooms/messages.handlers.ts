import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { CommandContext } from '@app/common';
import { GetMessageV1, RequestOf, SendMessageV1 } from '@app/contracts';
import { CommandPipe } from '../shared/command-pipe';
import { GetMessage } from './get-message/get-message.usecase';
import { SendMessage } from './send-message/send-message.usecase';

/** Transport edge of the v2 message commands (history and notifications stay in RoomsHandlers). */
@Controller()
export class MessagesHandlers {
  constructor(private readonly sendMessage: SendMessage, private readonly getMessage: GetMessage) {}

  @MessagePattern(SendMessageV1.pattern)
  send(@Payload(new CommandPipe(SendMessageV1)) c: RequestOf<typeof SendMessageV1>, @Ctx() ctx: CommandContext) { return this.sendMessage.execute(c, ctx.meta); }

  @MessagePattern(GetMessageV1.pattern)
  get(@Payload(new CommandPipe(GetMessageV1)) c: RequestOf<typeof GetMessageV1>) { return this.getMessage.execute(c); }
}
