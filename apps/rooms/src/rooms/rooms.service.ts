import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  Actor, CreateRoomReplyV1, CreateRoomRequestV1, DeleteRoomReplyV1, DeleteRoomRequestV1, HistoryReplyV1,
  HistoryRequestV1, LIMITS, ListRoomsReplyV1, NotificationMessageObject, RoomCreatedV1, RoomDeletedV1,
  RoomNotificationSentV1, RoomRefRequestV1, RoomTopicChangedV1, SendNotificationReplyV1, SendNotificationRequestV1,
  SetTopicReplyV1, SetTopicRequestV1, ShowRoomReplyV1, V1HistoryMessage,
} from '@app/contracts';
import { DataSource, EntityManager, In } from 'typeorm';
import { MessageEntity, RoomEntity, RoomMemberEntity, UserEntity } from '../database/entities';
import { dayBounds, formatHistoryDate } from '../domain/history-date';
import { extractMentionNames } from '../domain/mentions';
import { newVersion, PresentationContext, toRoomObject, toUserObject, toV1Room } from '../domain/presenters';
import { commandError, isUniqueViolation } from '../errors';
import { appendToOutbox } from '../outbox/outbox';
import { OutboxTransaction } from '../outbox/outbox-transaction';
import { PRESENTATION } from '../tokens-di';

@Injectable()
export class RoomsService {
  constructor(
    private readonly db: DataSource,
    private readonly tx: OutboxTransaction,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  /** Room by ID (all digits) or by name, case-insensitively. */
  async findRoom(m: EntityManager, idOrName: string, lock = false): Promise<RoomEntity> {
    const qb = m.getRepository(RoomEntity).createQueryBuilder('r');
    if (lock) qb.setLock('pessimistic_write');
    let room: RoomEntity | null = null;
    if (/^\d{1,9}$/.test(idOrName)) room = await qb.clone().where('r.id = :id', { id: Number(idOrName) }).getOne();
    if (!room) room = await qb.where('lower(r.name) = lower(:name)', { name: idOrName }).getOne();
    if (!room) throw commandError('not_found', `Room not found: ${idOrName}`, 'room_id');
    return room;
  }

  async create(req: CreateRoomRequestV1): Promise<CreateRoomReplyV1> {
    return this.tx.run(async (m) => {
      const owner = await m.getRepository(UserEntity).findOneBy({ id: req.ownerUserId, isDeleted: false });
      if (!owner) throw commandError('not_found', `User not found: owner_user_id ${req.ownerUserId}`, 'owner_user_id');
      const room = m.getRepository(RoomEntity).create({
        name: req.name,
        topic: req.topic,
        privacy: req.privacy,
        ownerUserId: owner.id,
        isArchived: false,
        guestAccessToken: req.guestAccess ? randomBytes(16).toString('hex') : null,
        version: newVersion(),
        lastActiveAt: null,
      });
      try {
        await m.getRepository(RoomEntity).insert(room);
      } catch (err) {
        if (isUniqueViolation(err)) throw commandError('conflict', `name: a room named "${req.name}" already exists`, 'name');
        throw err;
      }
      const saved = await m.getRepository(RoomEntity).findOneByOrFail({ id: room.id });
      if (saved.privacy === 'private') await m.getRepository(RoomMemberEntity).insert({ roomId: saved.id, userId: owner.id });
      await appendToOutbox(m, RoomCreatedV1, { room: toRoomObject(saved, this.ctx), sender: toUserObject(owner, this.ctx) });
      return { room: toV1Room(saved, this.ctx) };
    });
  }

  async delete(req: DeleteRoomRequestV1): Promise<DeleteRoomReplyV1> {
    return this.tx.run(async (m) => {
      const room = await this.findRoom(m, req.roomIdOrName, true);
      await m.getRepository(RoomEntity).delete({ id: room.id });
      await appendToOutbox(m, RoomDeletedV1, { room: toRoomObject(room, this.ctx), sender: senderLabel(req.actor) });
      return { deleted: true };
    });
  }

  async list(): Promise<ListRoomsReplyV1> {
    const rooms = await this.db.getRepository(RoomEntity).find({ order: { id: 'ASC' } });
    return { rooms: rooms.map((r) => toV1Room(r, this.ctx)) };
  }

  async show(req: RoomRefRequestV1): Promise<ShowRoomReplyV1> {
    const room = await this.findRoom(this.db.manager, req.roomIdOrName);
    const members = await this.db.getRepository(RoomMemberEntity).find({ where: { roomId: room.id }, order: { userId: 'ASC' } });
    return { room: { ...toV1Room(room, this.ctx), member_user_ids: members.map((x) => x.userId), participants: [] } };
  }

  async history(req: HistoryRequestV1): Promise<HistoryReplyV1> {
    const room = await this.findRoom(this.db.manager, req.roomIdOrName);
    const repo = this.db.getRepository(MessageEntity);
    let rows: MessageEntity[];
    if (req.date === 'recent') {
      rows = (await repo.find({ where: { roomId: room.id }, order: { createdAt: 'DESC', id: 'DESC' }, take: LIMITS.historyRecentCount })).reverse();
    } else {
      const bounds = dayBounds(req.date, req.timezone);
      if (!bounds) throw commandError('invalid', 'date: must be "recent" or a calendar date YYYY-MM-DD', 'date');
      rows = await repo.createQueryBuilder('m')
        .where('m.room_id = :roomId AND m.created_at >= :start AND m.created_at < :end', { roomId: room.id, ...bounds })
        .orderBy('m.created_at', 'ASC').addOrderBy('m.id', 'ASC').getMany();
    }
    const userIds = [...new Set(rows.map((r) => r.userId).filter((id): id is number => id !== null))];
    const users = userIds.length ? await this.db.getRepository(UserEntity).findBy({ id: In(userIds) }) : [];
    const names = new Map(users.map((u) => [u.id, u.name]));
    const messages: V1HistoryMessage[] = rows.map((r) => ({
      date: formatHistoryDate(r.createdAt, req.timezone),
      from: r.userId !== null
        ? { name: names.get(r.userId) ?? r.fromLabel ?? '', user_id: r.userId }
        : { name: r.fromLabel ?? '', user_id: 'api' },
      message: r.body,
    }));
    return { messages };
  }

  async sendNotification(req: SendNotificationRequestV1): Promise<SendNotificationReplyV1> {
    return this.tx.run(async (m) => {
      // Locked: the event must carry the room as it is when this message commits (a topic
      // change committing in between would otherwise leave a stale version in the event).
      const room = await this.findRoom(m, req.roomIdOrName, true);
      if (room.isArchived) throw commandError('invalid', `room_id: room "${room.name}" is archived`, 'room_id');
      const mentioned = req.messageFormat === 'text' ? await this.mentionedUsers(m, req.message) : [];
      const now = new Date();
      const message = m.getRepository(MessageEntity).create({
        id: randomUUID(), roomId: room.id, type: 'notification', fromLabel: req.from, userId: null,
        body: req.message, messageFormat: req.messageFormat, color: req.color, notify: req.notify,
        mentionUserIds: mentioned.map((u) => u.id), createdAt: now,
      });
      await m.getRepository(MessageEntity).insert(message);
      // Rooms keep their latest activity; GREATEST keeps it monotonic under concurrent sends.
      await m.query('UPDATE rooms SET last_active_at = GREATEST(coalesce(last_active_at, $2), $2) WHERE id = $1', [room.id, now]);
      const item: NotificationMessageObject = {
        color: req.color, date: now.toISOString(), from: req.from, id: message.id,
        mentions: mentioned.map((u) => toUserObject(u, this.ctx)), message: req.message,
        message_format: req.messageFormat, type: 'notification',
      };
      await appendToOutbox(m, RoomNotificationSentV1, { room: toRoomObject(room, this.ctx), message: item, notify: req.notify });
      return { status: 'sent', messageId: message.id };
    });
  }

  async setTopic(req: SetTopicRequestV1): Promise<SetTopicReplyV1> {
    return this.tx.run(async (m) => {
      const room = await this.findRoom(m, req.roomIdOrName, true);
      room.topic = req.topic;
      room.version = newVersion();
      await m.getRepository(RoomEntity).update({ id: room.id }, { topic: room.topic, version: room.version });
      await appendToOutbox(m, RoomTopicChangedV1, { room: toRoomObject(room, this.ctx), sender: req.from, topic: req.topic });
      return { status: 'ok' };
    });
  }

  private async mentionedUsers(m: EntityManager, text: string): Promise<UserEntity[]> {
    const names = extractMentionNames(text);
    if (names.length === 0) return [];
    return m.getRepository(UserEntity).createQueryBuilder('u')
      .where('NOT u.is_deleted AND lower(u.mention_name) IN (:...names)', { names })
      .orderBy('u.id').getMany();
  }
}

function senderLabel(actor: Actor): string {
  return actor.label || 'API';
}
