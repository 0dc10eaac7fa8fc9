import { Get, HttpCode, Param, Put } from '@nestjs/common';
import { Actor, ListChatsV1, MarkPrivateChatReadV1, MarkRoomReadV1, RoomRef, UNREAD_CAP, UserRef, v2Links } from '@app/contracts';
import { Notes, RequireScopes, ResponseSchema, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, RoomRefParam, UserRefParam } from '../http/v2-request';
import { V2Resource } from '../http/v2-resource';
import { V2Body } from '../http/validation';
import { chatsResponse, ReadBody, readBody } from './chats.schemas';
import { toV2Chats } from './chats.presenter';

const MARKER = 'Our extension. What was read is kept per user on the server, so it follows the person from one browser to another. ' +
  'The marker only moves forward: a message older than the one already marked changes nothing (still 204). ' +
  'A token of no user (a room token, an add-on) is refused (403).';

/** Read markers of rooms: `/v2/room/{room}/read`. The rooms service decides who may see the room. */
@V2Controller('room')
export class RoomReadController extends V2Resource {
  @Put(':room/read')
  @Summary('Mark a room read up to a message (our extension)')
  @HttpCode(204)
  @RequireScopes('view_messages')
  @Notes(`${MARKER} For whoever may see the room (a private room: its members, owner and group admins; to anyone else it does not exist, 404). ` +
    'A message_id that is not a message of this room is a bad request (400). Opening a room this way adds it to GET /v2/user/{user}/chats.')
  async markRoom(@CurrentActor() actor: Actor, @RoomRefParam() room: RoomRef, @V2Body(readBody) body: ReadBody): Promise<void> {
    await this.rooms.send(MarkRoomReadV1, { actor, room, messageId: body.message_id });
  }
}

/** A person's chats and the read markers of their private chats, under `/v2/user/{user}`. */
@V2Controller('user')
export class UserChatsController extends V2Resource {
  @Put(':user/read')
  @Summary('Mark the private chat with a user read up to a message (our extension)')
  @HttpCode(204)
  @RequireScopes('view_messages')
  @Notes(`${MARKER} message_id is a private message between the acting user and {user}, sent either way (any other: 400).`)
  async markPrivate(@CurrentActor() actor: Actor, @UserRefParam() user: UserRef, @V2Body(readBody) body: ReadBody): Promise<void> {
    await this.rooms.send(MarkPrivateChatReadV1, { actor, user, messageId: body.message_id });
  }

  @Get(':user/chats')
  @Summary('A person\'s rooms and private chats, with unread counts (our extension)')
  @RequireScopes('view_messages')
  @ResponseSchema(chatsResponse)
  @Notes('Our extension, for the console\'s sidebar. Personal: {user} (id, e-mail or @mention_name) must be the acting user; anyone else, group admins ' +
    'included, is refused (403), and so is a token of no user. Rooms: those not archived that the user may see and is a member of, owns, or has ' +
    'opened (PUT /v2/room/{room}/read), by name. Private chats: every user (not deleted) the user exchanged a private message with, newest ' +
    `conversation first. \`unread\`: messages and notifications after the user's read marker not sent by the user, counted up to ${UNREAD_CAP} ` +
    `(${UNREAD_CAP} means ${UNREAD_CAP} or more), so the list costs the same however much was missed. With no marker, a room counts what was said ` +
    'since the user became a member when that is known (memberships made before this extension, and rooms the user owns or only opened, count ' +
    'nothing), and a private chat counts every message received. `mentioned`: one of the unread messages (the newest ' +
    `${UNREAD_CAP}) mentions the user: a room message whose mentions name them or that says @all (@here, meant for the people present when it was said, ` +
    'does not count), a private message whose text has @ and their mention name.')
  async chats(@CurrentActor() actor: Actor, @UserRefParam() user: UserRef, @Param('user') raw: string) {
    const reply = await this.rooms.send(ListChatsV1, { actor, user });
    return toV2Chats(reply, this.base, `${v2Links(this.base).user(raw)}/chats`);
  }
}
