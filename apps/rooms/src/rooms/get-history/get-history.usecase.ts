import { Injectable } from '@nestjs/common';
import { commandFailure, GetHistoryV1, HistoryMessageView, ReplyOf, RequestOf } from '@app/contracts';
import { DataSource } from 'typeorm';
import { HistoryRow, MessageRepository } from '../message.repository';
import { RoomRepository } from '../room.repository';
import { dayBounds } from './history-date';

/** `recent` is the newest 75 messages; a date is that calendar day in `timezone`; oldest first. */
@Injectable()
export class GetHistory {
  constructor(
    private readonly db: DataSource,
    private readonly rooms: RoomRepository,
    private readonly messages: MessageRepository,
  ) {}

  async execute(cmd: RequestOf<typeof GetHistoryV1>): Promise<ReplyOf<typeof GetHistoryV1>> {
    const m = this.db.manager;
    const room = await this.rooms.findByRef(m, cmd.room);
    let rows: HistoryRow[];
    if (cmd.date === 'recent') rows = await this.messages.recent(m, room.id);
    else {
      const bounds = dayBounds(cmd.date, cmd.timezone);
      if (!bounds) throw commandFailure('invalid', 'rule', 'date', { problem: `must be "recent" or a calendar date YYYY-MM-DD (got "${cmd.date}")` });
      rows = await this.messages.between(m, room.id, bounds.start, bounds.end);
    }
    return { messages: rows.map(toHistoryView) };
  }
}

export function toHistoryView(row: HistoryRow): HistoryMessageView {
  return {
    id: row.id,
    date: row.createdAt.toISOString(),
    type: row.type,
    from: row.userId !== null ? { userId: row.userId, name: row.userName ?? row.fromLabel ?? '' } : { userId: null, name: row.fromLabel ?? '' },
    message: row.body,
    messageFormat: row.messageFormat,
    color: row.color,
  };
}
