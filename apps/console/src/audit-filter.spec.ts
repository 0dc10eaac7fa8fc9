import { AUDIT_ACTIONS } from '@app/contracts';
import { AUDIT_ACTION_GROUPS, auditPath, filterOf, isFiltered, NO_FILTER, roomChoices, startOfDay } from './audit-filter';

describe('the audit log filter', () => {
  it('offers every action the log records, each once', () => {
    const offered = AUDIT_ACTION_GROUPS.flatMap((g) => g.actions);
    expect(new Set(offered).size).toBe(offered.length);
    expect([...offered].sort()).toEqual([...AUDIT_ACTIONS].sort());
  });

  it('asks for a page of every line when nothing is chosen', () => {
    expect(auditPath(NO_FILTER, 50, 50)).toBe('/v2/audit?start-index=50&max-results=50');
    expect(isFiltered(NO_FILTER)).toBe(false);
  });

  it('asks for the chosen actor, action and room', () => {
    const path = auditPath({ ...NO_FILTER, actor: '3', action: 'user.invited', room: '12' }, 0, 50);
    const q = new URL(path, 'http://x').searchParams;
    expect([q.get('actor'), q.get('action'), q.get('room'), q.get('since'), q.get('until')]).toEqual(['3', 'user.invited', '12', null, null]);
  });

  it('reads the dates as whole local days: from the first instant of "from" to the first instant after "to"', () => {
    const q = new URL(auditPath({ ...NO_FILTER, since: '2026-03-01', until: '2026-03-31' }, 0, 50), 'http://x').searchParams;
    expect(q.get('since')).toBe(new Date(2026, 2, 1).toISOString());
    expect(q.get('until')).toBe(new Date(2026, 3, 1).toISOString());
  });

  it('takes no date that is not a day', () => {
    expect(startOfDay('')).toBeNull();
    expect(startOfDay('yesterday')).toBeNull();
    expect(startOfDay('2026-12-31', 1)).toEqual(new Date(2027, 0, 1));
  });

  it('keeps a filter from the history entry, and nothing else', () => {
    expect(filterOf({ action: 'room.deleted', room: 4, other: 'x' })).toEqual({ ...NO_FILTER, action: 'room.deleted' });
    expect(filterOf(null)).toEqual(NO_FILTER);
  });
});

describe('roomChoices', () => {
  const line = (id: number | null, name: string, type = 'room') => ({ target: { type, id, name } });

  it('adds the rooms the log says were deleted, marked, once each, among the others by name', () => {
    const rooms = [{ id: 2, name: 'Ops' }, { id: 1, name: 'Alpha' }];
    expect(roomChoices(rooms, [line(9, 'Launch'), line(9, 'Launch'), line(2, 'Ops'), line(null, 'x'), line(5, 'Ada', 'user')])).toEqual([
      { id: 1, name: 'Alpha' }, { id: 9, name: 'Launch (deleted)' }, { id: 2, name: 'Ops' },
    ]);
  });
});
