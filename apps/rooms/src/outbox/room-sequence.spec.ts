import { OutboxRow, roomsToLoad, sequenceBatch } from './room-sequence';

const row = (id: number, roomId: number | null, extra: Record<string, unknown> = {}): OutboxRow => ({
  id: String(id), room_id: roomId, routing_key: roomId === null ? 'user.created.v1' : 'room.message-sent.v2',
  envelope: JSON.stringify({ id: `e${id}`, type: 'x', version: 2, occurredAt: '2026-01-01T00:00:00Z', payload: {}, ...extra }),
});

describe('sequenceBatch', () => {
  it('numbers each room on from its last published sequence, in row order', () => {
    const last = new Map([[1, 41], [2, 0]]);
    const { events, lastSeq } = sequenceBatch([row(10, 1), row(11, 2), row(12, 1), row(13, 1), row(14, 2)], (r) => last.get(r) ?? 0);
    expect(events.map((e) => [e.id, e.envelope.sequence])).toEqual([['10', 42], ['11', 1], ['12', 43], ['13', 44], ['14', 2]]);
    expect([...lastSeq]).toEqual([[1, 44], [2, 2]]);
  });

  it('keeps the row order and gives events of no room no sequence', () => {
    const { events, lastSeq } = sequenceBatch([row(5, 7), row(6, null), row(7, 7)], () => 0);
    expect(events.map((e) => e.id)).toEqual(['5', '6', '7']);
    expect(events[1].envelope).not.toHaveProperty('sequence');
    expect(events[1].routingKey).toBe('user.created.v1');
    expect([...lastSeq]).toEqual([[7, 2]]);
  });

  it('gives a batch published again after a crash the numbers it had (the last sequence was not advanced)', () => {
    const rows = [row(1, 3), row(2, 3), row(3, 4)];
    const first = sequenceBatch(rows, () => 9).events.map((e) => e.envelope.sequence);
    // A larger batch the next relay reads: the same rows first, then newer ones.
    const again = sequenceBatch([...rows, row(4, 3)], () => 9).events.map((e) => e.envelope.sequence);
    expect(again.slice(0, 3)).toEqual(first);
    expect(again[3]).toBe(12);
  });

  it('carries which events go to the ordered deliveries\' queue too', () => {
    const { events } = sequenceBatch([{ ...row(1, 1), ordered: true }, row(2, 2), { ...row(3, 1), ordered: false }], () => 0);
    expect(events.map((e) => e.ordered)).toEqual([true, false, false]);
  });

  it('keeps the rest of the envelope as written (id, registrations version)', () => {
    const { events } = sequenceBatch([row(1, 1, { registrationsVersion: 4 })], () => 0);
    expect(events[0].envelope).toEqual({
      id: 'e1', type: 'x', version: 2, occurredAt: '2026-01-01T00:00:00Z', payload: {}, registrationsVersion: 4, sequence: 1,
    });
  });
});

describe('roomsToLoad', () => {
  it('names each unknown room once, never events of no room', () => {
    expect(roomsToLoad([row(1, 1), row(2, 2), row(3, 1), row(4, null), row(5, 3)], new Map([[2, 5]]))).toEqual([1, 3]);
  });
});
