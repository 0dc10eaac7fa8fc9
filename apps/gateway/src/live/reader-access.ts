import { Actor, GetRoomEventsV1 } from '@app/contracts';
import { RoomsClient, RoomsOutage } from '../shared/rooms-client';

/**
 * Whether the actor may (still) read a room's events, asked as a live stream's opening asks
 * (the history's rule): true or false, never rejecting. An outage of the rooms service is
 * asked again (backing off) while the stream is open; a stream that ended meanwhile gets true
 * (nothing will be written to it anyway).
 */
export async function mayReadRoom(rooms: RoomsClient, roomId: number, actor: Actor, stillOpen: () => boolean): Promise<boolean> {
  for (let wait = 10; ; wait = Math.min(wait * 2, 2_000)) {
    try {
      await rooms.send(GetRoomEventsV1, { room: { id: roomId }, actor, after: null, limit: 0 });
      return true;
    } catch (err) {
      if (!(err instanceof RoomsOutage)) return false;
      if (!stillOpen()) return true;
      await new Promise((r) => setTimeout(r, wait).unref());
    }
  }
}
