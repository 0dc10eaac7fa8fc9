import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Actor, commandFailure, EventDefinition, RoomRef } from '@app/contracts';
import { MessageEntity, RoomEntity, UserEntity } from '../database/entities';
import { Tx } from '../outbox/unit-of-work';
import { Actors } from '../users/actors';
import { UserRepository } from '../users/user.repository';
import { MessageExtras, MessageRepository, StoredMessage } from './message.repository';
import { RoomRepository, roomRefKey } from './room.repository';

/** What a post stores beside what every post has (id, room, mentions, time). */
export type PostFields = Pick<MessageEntity, 'type' | 'fromLabel' | 'userId' | 'body' | 'messageFormat' | 'color' | 'notify'> & MessageExtras;

/**
 * Posting into a room, as sending a message, a notification and sharing a file all do:
 * the room read FOR SHARE (so messages to one room commit concurrently while a change of
 * the room waits for them), the acting user, the access and archive checks, then the
 * message staged with the commit. Within a batch the room, the user and the members are
 * read once (Tx.memo); the rows of the whole batch go in one INSERT.
 */
@Injectable()
export class RoomPost {
  constructor(
    private readonly rooms: RoomRepository,
    private readonly users: UserRepository,
    private readonly messages: MessageRepository,
    private readonly actors: Actors,
  ) {}

  /** The acting user (none behind v1 tokens: no query); a v2 user is read once per batch. */
  actingUser({ manager: m, memo }: Tx, actor: Actor): Promise<UserEntity | null> {
    return memo(`actor:${actor.userId ?? ''}`, () => this.actors.user(m, actor));
  }

  /** The room a post goes to, with the acting user; refused when the actor may not send to it or it is archived. */
  async open(tx: Tx, ref: RoomRef, actor: Actor): Promise<{ room: RoomEntity; user: UserEntity | null }> {
    const opened = await this.rooms.findForUse(tx.manager, ref, actor, () => this.actingUser(tx, actor), { lock: 'share', memo: tx.memo });
    if (opened.room.isArchived) throw commandFailure('invalid', 'room_archived', 'room', { name: opened.room.name });
    return opened;
  }

  /**
   * The room a bridge's inbound post goes to: no actor (the bridge was allowed when it was
   * made, and its key or token is the credential), read FOR SHARE once per batch as open
   * reads it; refused when archived.
   */
  async openForBridge(tx: Tx, roomId: number): Promise<RoomEntity> {
    const ref = { id: roomId };
    const room = await tx.memo(roomRefKey(ref), () => this.rooms.findByRef(tx.manager, ref, 'share'));
    if (room.isArchived) throw commandFailure('invalid', 'room_archived', 'room', { name: room.name });
    return room;
  }

  /** Stages the message (its @mentions resolved to live users) with the commit; answers it and who it mentions. */
  async store(tx: Tx, room: RoomEntity, fields: PostFields, mentionNames: string[]): Promise<{ message: StoredMessage; mentioned: UserEntity[] }> {
    const mentioned = await this.users.byMentionNames(tx.manager, mentionNames);
    const message: StoredMessage = Object.assign(new MessageEntity(), {
      id: randomUUID(), roomId: room.id, ...fields, mentionUserIds: mentioned.map((u) => u.id), createdAt: new Date(),
    });
    tx.insertLater(this.messages, message);
    return { message, mentioned };
  }

  /** Emits the event that tells of a stored message: the message takes its place in history from it. */
  announce<P>(tx: Tx, message: StoredMessage, definition: EventDefinition<P>, payload: P): void {
    message.event = tx.emit(definition, payload);
  }
}
