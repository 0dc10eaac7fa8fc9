import { Injectable } from '@nestjs/common';
import { commandFailure, GetHistoryV2, HistoryMessageView, LIMITS, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { Actors } from '../../users/actors';
import { HistoryRow, MessageRepository } from '../message.repository';
import { RoomRepository } from '../room.repository';

/**
 * A page of a room's history (see GetHistoryV2), for readers allowed in the room: the
 * newest messages within the bounds, listed oldest first.
 */
@Injectable()
export class GetHistory {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    private readonly messages: MessageRepository,
    private readonly actors: Actors,
  ) {}

  async execute(cmd: RequestOf<typeof GetHistoryV2>): Promise<ReplyOf<typeof GetHistoryV2>> {
    const m = this.db.manager;
    // v1 admin tokens send no actor: they read every room.
    const actor = cmd.actor;
    const room = actor
      ? (await this.rooms.findForUse(m, cmd.room, actor, () => this.actors.user(m, actor))).room
      : await this.rooms.findByRef(m, cmd.room);
    let since = cmd.since ? new Date(cmd.since) : undefined;
    if (cmd.notBefore !== undefined) {
      const sentAt = await this.messages.sentAt(m, room.id, cmd.notBefore);
      if (!sentAt) throw commandFailure('invalid', 'rule', 'notBefore', { problem: `must be the id of a message of room ${room.name} (got "${cmd.notBefore}")` });
      if (!since || sentAt > since) since = sentAt;
    }
    const { offset, limit } = recentWindow(cmd);
    if (limit === 0) return { messages: [] };
    const rows = await this.messages.page(m, room.id, { since, before: cmd.before ? new Date(cmd.before) : undefined, offset, limit, details: cmd.details });
    return { messages: rows.reverse().map(toHistoryView) };
  }
}

interface Window { recentOnly: boolean; offset: number; limit?: number }

/** `recent` pages within the newest 75 messages only: past them there is nothing. */
export function recentWindow(page: Window): { offset: number; limit: number | null } {
  if (!page.recentOnly) return { offset: page.offset, limit: page.limit ?? null };
  const left = Math.max(0, LIMITS.historyRecentCount - page.offset);
  return { offset: page.offset, limit: Math.min(page.limit ?? left, left) };
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
