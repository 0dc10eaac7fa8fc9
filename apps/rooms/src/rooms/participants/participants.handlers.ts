import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { CommandContext } from '@app/common';
import { EnterRoomV1, ExitRoomV1, ListParticipantsV1, RequestOf } from '@app/contracts';
import { CommandPipe } from '../../shared/command-pipe';
import { EnterRoom } from './enter-room/enter-room.usecase';
import { ExitRoom } from './exit-room/exit-room.usecase';
import { ListParticipants } from './list-participants/list-participants.usecase';

/** Transport edge of presence: each command, parsed with its contract's schema, goes to its use case. */
@Controller()
export class ParticipantsHandlers {
  constructor(
    private readonly enterRoom: EnterRoom,
    private readonly exitRoom: ExitRoom,
    private readonly listParticipants: ListParticipants,
  ) {}

  @MessagePattern(EnterRoomV1.pattern)
  enter(@Payload(new CommandPipe(EnterRoomV1)) c: RequestOf<typeof EnterRoomV1>, @Ctx() ctx: CommandContext) { return this.enterRoom.execute(c, ctx.meta); }

  @MessagePattern(ExitRoomV1.pattern)
  exit(@Payload(new CommandPipe(ExitRoomV1)) c: RequestOf<typeof ExitRoomV1>, @Ctx() ctx: CommandContext) { return this.exitRoom.execute(c, ctx.meta); }

  @MessagePattern(ListParticipantsV1.pattern)
  list(@Payload(new CommandPipe(ListParticipantsV1)) c: RequestOf<typeof ListParticipantsV1>) { return this.listParticipants.execute(c); }
}
