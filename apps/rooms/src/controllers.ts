import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AuthenticateRequestV1, CreateRoomRequestV1, CreateUserRequestV1, DeleteRoomRequestV1, HistoryRequestV1,
  ListUsersRequestV1, RoomRefRequestV1, RoomsCommandV1, SendNotificationRequestV1, SetTopicRequestV1,
  TokensCommandV1, UpdateUserRequestV1, UserRefRequestV1, UsersCommandV1,
} from '@app/contracts';
import { RoomsService } from './rooms/rooms.service';
import { TokensService } from './tokens/tokens.service';
import { UsersService } from './users/users.service';

/** Transport edge: each command pattern maps to one service method. */
@Controller()
export class RoomsController {
  constructor(private readonly rooms: RoomsService) {}

  @MessagePattern(RoomsCommandV1.create) create(@Payload() req: CreateRoomRequestV1) { return this.rooms.create(req); }
  @MessagePattern(RoomsCommandV1.delete) delete(@Payload() req: DeleteRoomRequestV1) { return this.rooms.delete(req); }
  @MessagePattern(RoomsCommandV1.history) history(@Payload() req: HistoryRequestV1) { return this.rooms.history(req); }
  @MessagePattern(RoomsCommandV1.list) list() { return this.rooms.list(); }
  @MessagePattern(RoomsCommandV1.show) show(@Payload() req: RoomRefRequestV1) { return this.rooms.show(req); }
  @MessagePattern(RoomsCommandV1.sendNotification) send(@Payload() req: SendNotificationRequestV1) { return this.rooms.sendNotification(req); }
  @MessagePattern(RoomsCommandV1.setTopic) topic(@Payload() req: SetTopicRequestV1) { return this.rooms.setTopic(req); }
}

@Controller()
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @MessagePattern(UsersCommandV1.create) create(@Payload() req: CreateUserRequestV1) { return this.users.create(req); }
  @MessagePattern(UsersCommandV1.update) update(@Payload() req: UpdateUserRequestV1) { return this.users.update(req); }
  @MessagePattern(UsersCommandV1.delete) delete(@Payload() req: UserRefRequestV1) { return this.users.delete(req); }
  @MessagePattern(UsersCommandV1.undelete) undelete(@Payload() req: UserRefRequestV1) { return this.users.undelete(req); }
  @MessagePattern(UsersCommandV1.list) list(@Payload() req: ListUsersRequestV1) { return this.users.list(req); }
  @MessagePattern(UsersCommandV1.show) show(@Payload() req: UserRefRequestV1) { return this.users.show(req); }
}

@Controller()
export class TokensController {
  constructor(private readonly tokens: TokensService) {}

  @MessagePattern(TokensCommandV1.authenticate) authenticate(@Payload() req: AuthenticateRequestV1) { return this.tokens.authenticate(req); }
}
