import { Injectable } from '@nestjs/common';
import { commandFailure, GetHistoryV1, HistoryMessageView, HistoryPage, LIMITS, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource, EntityManager } from 'typeorm';
import type { RoomEntity } from '../../database/entities';
import { Actors } from '../../users/actors';
import { HistoryRow, MessageRepository } from '../message.repository';
import { RoomRepository } from '../room.repository';
import { dayBounds } from './history-date';
import { assertMayUseRoom } from '../room-access';

/**
 * v1: `recent` is the newest 75 messages, a date that calendar day in `timezone`; oldest
 * first. v2 (`page`): a page of messages newest first, for readers allowed in the room.
 */
@Injectable()
export class GetHistory {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    private readonly messages: MessageRepository,
    private readonly actors: Actors,
  ) {}

  async execute(cmd: RequestOf<typeof GetHistoryV1>): Promise<ReplyOf<typeof GetHistoryV1>> {
    const m = this.db.manager;
    const room = await this.rooms.findByRef(m, cmd.room);
    if (cmd.actor) {
      const user = await this.actors.user(m, cmd.actor);
      await assertMayUseRoom(cmd.actor, user, room, 'read its history', () => this.rooms.memberIds(m, room.id));
    }
    if (cmd.page) return { messages: (await this.page(m, room, cmd.page)).map(toHistoryView) };
    let rows: HistoryRow[];
    if (cmd.date === undefined) throw commandFailure('invalid', 'rule', 'date', { problem: 'is required' });
    if (cmd.date === 'recent') rows = await this.messages.recent(m, room.id);
    else {
      const bounds = dayBounds(cmd.date, cmd.timezone);
      if (!bounds) throw commandFailure('invalid', 'rule', 'date', { problem: `must be "recent" or a calendar date YYYY-MM-DD (got "${cmd.date}")` });
      rows = await this.messages.between(m, room.id, bounds.start, bounds.end);
    }
    return { messages: rows.map(toHistoryView) };
  }

  private async page(m: EntityManager, room: RoomEntity, page: HistoryPage): Promise<HistoryRow[]> {
    let after = page.after ? new Date(page.after) : undefined;
    if (page.notBefore !== undefined) {
      const sentAt = await this.messages.sentAt(m, room.id, page.notBefore);
      if (!sentAt) throw commandFailure('invalid', 'rule', 'not-before', { problem: `must be the id of a message of room ${room.name} (got "${page.notBefore}")` });
      if (!after || sentAt > after) after = sentAt;
    }
    const { offset, limit } = recentWindow(page);
    if (limit === 0) return [];
    return this.messages.page(m, room.id, { before: page.before ? new Date(page.before) : undefined, after, offset, limit });
  }
}

/** `recent` pages within the newest 75 messages only: past them there is nothing. */
export function recentWindow(page: Pick<HistoryPage, 'recentOnly' | 'offset' | 'limit'>): { offset: number; limit: number } {
  if (!page.recentOnly) return { offset: page.offset, limit: page.limit };
  return { offset: page.offset, limit: Math.max(0, Math.min(page.limit, LIMITS.historyRecentCount - page.offset)) };
}

export function toHistoryView(row: HistoryRow): HistoryMessageView {
  const view: HistoryMessageView = {
    id: row.id,
    date: row.createdAt.toISOString(),
    type: row.type,
    from: row.userId !== null ? { userId: row.userId, name: row.userName ?? row.fromLabel ?? '' } : { userId: null, name: row.fromLabel ?? '' },
    message: row.body,
    messageFormat: row.messageFormat,
    color: row.color,
  };
  if (row.file) {
    view.file = { name: row.file.name, size: row.file.size, url: row.file.url, ...(row.file.thumb_url ? { thumbUrl: row.file.thumb_url } : {}) };
  }
  // v2 rows (page, findInRoom) carry what User objects and the other v2 fields need.
  if (row.mentions !== undefined) {
    if (row.userId !== null && row.userMentionName != null) {
      view.from = { ...view.from, mentionName: row.userMentionName, version: row.userVersion ?? '' };
    }
    view.mentions = row.mentions;
    if (row.messageLinks) view.messageLinks = row.messageLinks;
    if (row.card) view.card = row.card;
    if (row.attachTo) view.attachTo = row.attachTo;
  }
  return view;
}
