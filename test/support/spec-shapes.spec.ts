import { EVENT_ITEMS, MESSAGE, ROOM, specProblems } from './spec-shapes';

const room = { id: 1, is_archived: false, links: { self: 'http://h/v2/room/1', participants: 'http://h/p', webhooks: 'http://h/w' }, name: 'R', privacy: 'public', version: 'AB12' };
const user = { id: 2, links: { self: 'http://h/v2/user/2' }, mention_name: 'ada', name: 'Ada', version: 'CD34' };

describe('specProblems', () => {
  it('accepts what the tables describe', () => {
    expect(specProblems(ROOM, room)).toEqual([]);
    expect(specProblems(EVENT_ITEMS.room_enter, { room, sender: user })).toEqual([]);
    expect(specProblems(MESSAGE, { date: '2026-01-01T00:00:00.000Z', from: user, id: 'x', message: 'hi', type: 'message', mentions: [user] })).toEqual([]);
  });

  it('names missing fields, wrong types and fields the table lacks', () => {
    const { version: _v, ...noVersion } = room;
    expect(specProblems(ROOM, { ...noVersion, id: '1', extra: 1 })).toEqual(['Room.id: must be an integer (got "1")', 'Room.version: is required', 'Room.extra: is not in the specification\'s table']);
    expect(specProblems(EVENT_ITEMS.room_enter, { room, sender: 'label' })[0]).toMatch(/^room_enter item.sender: must be an object/);
    expect(specProblems(MESSAGE, { date: 'yesterday', from: 3, id: 'x', message: 'hi', type: 'message' })).toHaveLength(2);
  });
});
