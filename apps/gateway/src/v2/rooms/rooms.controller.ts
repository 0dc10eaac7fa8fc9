import { Delete, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import {
  Actor, CreateRoomV1, DeleteRoomV1, GetRoomStatisticsV1, GetRoomV1, ListRoomsV1, RoomRef, SetTopicV1, UpdateRoomV1,
  v2Links,
} from '@app/contracts';
import { namingFields } from '../../shared/command-errors';
import { RequireScopes, ResponseSchema, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor, RoomRefParam } from '../http/v2-request';
import { V2Resource } from '../http/v2-resource';
import { V2Body, V2Query } from '../http/validation';
import { toV2CreatedRoom, toV2ExpandedRoomItem, toV2Room, toV2RoomItem, toV2RoomStatistics } from './rooms.presenter';
import {
  CreateRoomBody, createRoomBody, ListRoomsQuery, listRoomsQuery, roomStatisticsResponse, roomUpdateFieldNames, roomUpdateOf, TopicBody, topicBody,
  UpdateRoomBody, updateRoomBody,
} from './rooms.schemas';

/** `/v2/room` and `/v2/room/{room}`: rooms themselves, their topic and statistics. */
@V2Controller('room')
export class RoomsController extends V2Resource {
  @Post()
  @Summary('Create a room (room_created)')
  @HttpCode(201)
  @RequireScopes('manage_rooms')
  async create(@V2Body(createRoomBody) b: CreateRoomBody, @CurrentActor() actor: Actor) {
    const { room } = await this.rooms.send(CreateRoomV1, {
      actor, name: b.name, privacy: b.privacy, topic: b.topic, guestAccess: b.guest_access,
      ...(b.owner_user_id ? { owner: b.owner_user_id } : {}),
    });
    return toV2CreatedRoom(room, this.base);
  }

  @Get()
  @Summary('List rooms')
  @RequireScopes('view_group', 'view_room')
  list(@V2Query(listRoomsQuery) q: ListRoomsQuery, @Query() raw: Record<string, unknown>, @CurrentActor() actor: Actor) {
    return this.page(q, raw, v2Links('').rooms, async (w) => (await this.rooms.send(ListRoomsV1, {
      actor, includePrivate: q['include-private'], includeArchived: q['include-archived'], ...w,
    })).rooms, q.expand === 'items' ? toV2ExpandedRoomItem : toV2RoomItem);
  }

  @Get(':room')
  @Summary('Get a room')
  @RequireScopes('view_group', 'view_room')
  async get(@RoomRefParam() room: RoomRef, @CurrentActor() actor: Actor) {
    return toV2Room((await this.rooms.send(GetRoomV1, { room, actor, withOwner: true })).room, this.base);
  }

  /** The link every room record carries (`statistics.links.self`); read as the room is. */
  @Get(':room/statistics')
  @Summary('Get a room\'s statistics')
  @ResponseSchema(roomStatisticsResponse)
  @RequireScopes('view_group', 'view_room')
  async statistics(@RoomRefParam() room: RoomRef, @CurrentActor() actor: Actor) {
    return toV2RoomStatistics((await this.rooms.send(GetRoomStatisticsV1, { room, actor })).statistics, this.base);
  }

  @Put(':room')
  @Summary('Update a room (room_archived, room_unarchived, room_topic_change)')
  @HttpCode(204)
  @RequireScopes('admin_room', 'manage_rooms')
  async update(@RoomRefParam() room: RoomRef, @V2Body(updateRoomBody) b: UpdateRoomBody, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(UpdateRoomV1, { actor, room, ...roomUpdateOf(b) }).catch(namingFields(roomUpdateFieldNames(b)));
  }

  @Delete(':room')
  @Summary('Delete a room (room_deleted)')
  @HttpCode(204)
  @RequireScopes('admin_room', 'manage_rooms')
  async delete(@RoomRefParam() room: RoomRef, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(DeleteRoomV1, { actor, room });
  }

  /** HipChat asked for admin_room; manage_rooms may change every attribute of a room anyway. */
  @Put(':room/topic')
  @Summary('Set a room\'s topic (room_topic_change)')
  @HttpCode(204)
  @RequireScopes('admin_room', 'manage_rooms')
  async topic(@RoomRefParam() room: RoomRef, @V2Body(topicBody) b: TopicBody, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(SetTopicV1, { actor, room, topic: b.topic });
  }
}
