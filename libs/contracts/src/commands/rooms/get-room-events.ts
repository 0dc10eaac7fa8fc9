import { z } from 'zod';
import type { EventEnvelope } from '../../events/envelope';
import { defineCommand } from '../define-command';
import { actorSchema, roomRefSchema } from '../refs';

/** One event of a room's recent log, as it was published (its envelope carries `sequence`). */
export interface RoomEventRecord {
  seq: number;
  routingKey: string;
  envelope: EventEnvelope;
}

export interface RoomEventsReply {
  roomId: number;
  /** The room's last published sequence (0: none yet). */
  lastSeq: number;
  /**
   * Whether nothing after `after` was forgotten: the oldest kept event is at most `after + 1`,
   * or there is nothing after it. False: events after `after` are older than the log's
   * retention (a resume from there would have a gap).
   */
  covered: boolean;
  /** Events with `sequence > after`, oldest first, at most `limit`: consecutive sequences. */
  events: RoomEventRecord[];
}

/**
 * A room's events after a sequence number, from the log of recently published events
 * (`room_events`, kept LIVE_EVENTS_RETENTION): what a live connection resuming from
 * Last-Event-ID missed. For readers of the room (its history's access rule). `after: null`
 * reads no events: it answers the room's id and last sequence (where a new connection starts).
 */
export const GetRoomEventsV1 = defineCommand<RoomEventsReply>('rooms.room-events.v1', z.object({
  room: roomRefSchema,
  actor: actorSchema,
  after: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER).nullable(),
  limit: z.number().int().nonnegative().max(1000),
}), { query: true });
