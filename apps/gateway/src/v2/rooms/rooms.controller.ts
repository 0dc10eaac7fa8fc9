import { Delete, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import {
  Actor, CreateRoomV1, DeleteRoomV1, GetRoomV1, ListRoomsV1, parseRoomRef, SetTopicV1, UpdateRoomV1,
} from '@app/contracts';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { RoomsClient } from '../../shared/rooms-client';
import { pageOf, pageResponse, probeLimit, splitProbe } from '../http/pagination';
import { RequireScopes, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentActor } from '../http/v2-request';
import { V2Body, V2Query } from '../http/validation';
import { toV2CreatedRoom, toV2Room, toV2RoomItem } from './rooms.presenter';
import {
  CreateRoomBody, createRoomBody, ListRoomsQuery, listRoomsQuery, roomUpdateOf, TopicBody, topicBody, UpdateRoomBody, updateRoomBody,
} from './rooms.schemas';

/** `/v2/room` and `/v2/room/{room}`: rooms themselves, and their topic. */
@V2Controller('room')
export class RoomsController {
  private readonly base: string;

  constructor(private readonly rooms: RoomsClient, @Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.base = config.PUBLIC_BASE_URL;
  }

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
  async list(@V2Query(listRoomsQuery) q: ListRoomsQuery, @Query() raw: Record<string, unknown>, @CurrentActor() actor: Actor) {
    const page = pageOf(q);
    const { rooms } = await this.rooms.send(ListRoomsV1, {
      actor, includePrivate: q['include-private'], includeArchived: q['include-archived'], startIndex: page.startIndex, limit: probeLimit(page),
    });
    const { items, hasMore } = splitProbe(rooms, page);
    return pageResponse(items.map((r) => toV2RoomItem(r, this.base)), page, hasMore, `${this.base}/v2/room`, raw);
  }

  @Get(':room')
  @Summary('Get a room')
  @RequireScopes('view_group', 'view_room')
  async get(@Param('room') room: string, @CurrentActor() actor: Actor) {
    const reply = await this.rooms.send(GetRoomV1, { room: parseRoomRef(room), actor, withOwner: true });
    return toV2Room(reply.room, this.base);
  }

  @Put(':room')
  @Summary('Update a room (room_archived, room_unarchived, room_topic_change)')
  @HttpCode(204)
  @RequireScopes('admin_room', 'manage_rooms')
  async update(@Param('room') room: string, @V2Body(updateRoomBody) b: UpdateRoomBody, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(UpdateRoomV1, { actor, room: parseRoomRef(room), ...roomUpdateOf(b) });
  }

  @Delete(':room')
  @Summary('Delete a room (room_deleted)')
  @HttpCode(204)
  @RequireScopes('admin_room', 'manage_rooms')
  async delete(@Param('room') room: string, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(DeleteRoomV1, { actor, room: parseRoomRef(room) });
  }

  /** HipChat asked for admin_room; manage_rooms may change every attribute of a room anyway. */
  @Put(':room/topic')
  @Summary('Set a room\'s topic (room_topic_change)')
  @HttpCode(204)
  @RequireScopes('admin_room', 'manage_rooms')
  async topic(@Param('room') room: string, @V2Body(topicBody) b: TopicBody, @CurrentActor() actor: Actor): Promise<void> {
    await this.rooms.send(SetTopicV1, { actor, room: parseRoomRef(room), topic: b.topic });
  }
}
