import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { CommandContext } from '@app/common';
import {
  CreateRoomV1, DeleteRoomV1, GetHistoryV2, GetRoomEventsV1, GetRoomStatisticsV1, GetRoomV1, ListRoomsV1, RequestOf, SendNotificationV1, SetTopicV1, UpdateRoomV1,
} from '@app/contracts';
import { CommandPipe } from '../shared/command-pipe';
import { CreateRoom } from './create-room/create-room.usecase';
import { DeleteRoom } from './delete-room/delete-room.usecase';
import { GetHistory } from './get-history/get-history.usecase';
import { GetRoom } from './get-room/get-room.usecase';
import { GetRoomStatistics } from './get-room-statistics/get-room-statistics.usecase';
import { GetRoomEvents } from './room-events/get-room-events.usecase';
import { ListRooms } from './list-rooms/list-rooms.usecase';
import { SendNotification } from './send-notification/send-notification.usecase';
import { SetTopic } from './set-topic/set-topic.usecase';
import { UpdateRoom } from './update-room/update-room.usecase';

/** Transport edge: each command, parsed with its contract's schema, goes to its use case. */
@Controller()
export class RoomsHandlers {
  constructor(
    private readonly createRoom: CreateRoom,
    private readonly deleteRoom: DeleteRoom,
    private readonly getRoom: GetRoom,
    private readonly getRoomStatistics: GetRoomStatistics,
    private readonly listRooms: ListRooms,
    private readonly getHistory: GetHistory,
    private readonly getRoomEvents: GetRoomEvents,
    private readonly sendNotification: SendNotification,
    private readonly setTopic: SetTopic,
    private readonly updateRoom: UpdateRoom,
  ) {}

  @MessagePattern(CreateRoomV1.pattern)
  create(@Payload(new CommandPipe(CreateRoomV1)) c: RequestOf<typeof CreateRoomV1>, @Ctx() ctx: CommandContext) { return this.createRoom.execute(c, ctx.meta); }

  @MessagePattern(DeleteRoomV1.pattern)
  delete(@Payload(new CommandPipe(DeleteRoomV1)) c: RequestOf<typeof DeleteRoomV1>, @Ctx() ctx: CommandContext) { return this.deleteRoom.execute(c, ctx.meta); }

  @MessagePattern(GetRoomV1.pattern)
  get(@Payload(new CommandPipe(GetRoomV1)) c: RequestOf<typeof GetRoomV1>) { return this.getRoom.execute(c); }

  @MessagePattern(GetRoomStatisticsV1.pattern)
  statistics(@Payload(new CommandPipe(GetRoomStatisticsV1)) c: RequestOf<typeof GetRoomStatisticsV1>) { return this.getRoomStatistics.execute(c); }

  @MessagePattern(ListRoomsV1.pattern)
  list(@Payload(new CommandPipe(ListRoomsV1)) c: RequestOf<typeof ListRoomsV1>) { return this.listRooms.execute(c); }

  @MessagePattern(GetHistoryV2.pattern)
  history(@Payload(new CommandPipe(GetHistoryV2)) c: RequestOf<typeof GetHistoryV2>) { return this.getHistory.execute(c); }

  @MessagePattern(GetRoomEventsV1.pattern)
  events(@Payload(new CommandPipe(GetRoomEventsV1)) c: RequestOf<typeof GetRoomEventsV1>) { return this.getRoomEvents.execute(c); }

  @MessagePattern(SendNotificationV1.pattern)
  send(@Payload(new CommandPipe(SendNotificationV1)) c: RequestOf<typeof SendNotificationV1>, @Ctx() ctx: CommandContext) { return this.sendNotification.execute(c, ctx.meta); }

  @MessagePattern(SetTopicV1.pattern)
  topic(@Payload(new CommandPipe(SetTopicV1)) c: RequestOf<typeof SetTopicV1>, @Ctx() ctx: CommandContext) { return this.setTopic.execute(c, ctx.meta); }

  @MessagePattern(UpdateRoomV1.pattern)
  update(@Payload(new CommandPipe(UpdateRoomV1)) c: RequestOf<typeof UpdateRoomV1>, @Ctx() ctx: CommandContext) { return this.updateRoom.execute(c, ctx.meta); }
}
