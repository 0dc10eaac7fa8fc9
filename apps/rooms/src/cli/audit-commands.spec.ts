import type { AuditEntryView } from '@app/contracts';
import { auditFilter, auditPage, auditTable } from './audit-commands';
import { parseCommandLine, UsageError } from './options';

const line = (over: Partial<AuditEntryView> = {}): AuditEntryView => ({
  id: 12, date: '2026-11-29T00:00:00.000Z', actor: { type: 'user', id: 3, name: 'Ada Admin' }, action: 'room.member_removed',
  target: { type: 'room', id: 7, name: 'Ops' }, details: { user: { id: 4, name: 'Bea' } }, address: '203.0.113.7', ...over,
});

describe('cli audit', () => {
  it('prints a table as the other list commands do: a header, one tab-separated line per entry, newest first as given', () => {
    expect(auditTable([line(), line({ id: 11, actor: { type: 'cli', id: null, name: 'cli' }, action: 'token.created', target: { type: 'token', id: 9, name: 'ci\tbot' }, details: {}, address: null })]))
      .toBe([
        'ID\tDATE\tACTOR\tACTION\tTARGET\tADDRESS\tDETAILS',
        '12\t2026-11-29T00:00:00.000Z\tuser 3 Ada Admin\troom.member_removed\troom 7 Ops\t203.0.113.7\t{"user":{"id":4,"name":"Bea"}}',
        '11\t2026-11-29T00:00:00.000Z\tcli\ttoken.created\ttoken 9 ci bot\t-\t-',
        '',
      ].join('\n'));
  });

  it('takes --limit, --start-index, the filters and --json, and nothing else', () => {
    expect(parseCommandLine(['audit', '--limit', '5', '--start-index', '10', '--json']).values).toMatchObject({ limit: '5', 'start-index': '10', json: true });
    expect(parseCommandLine(['audit', '--actor', '@ada', '--action', 'user.invited', '--room', '7', '--since', '2026-03-01', '--until', '2026-03-02T00:00:00Z']).values)
      .toMatchObject({ actor: '@ada', action: 'user.invited', room: '7', since: '2026-03-01', until: '2026-03-02T00:00:00Z' });
    expect(() => parseCommandLine(['audit', '--type', 'admin'])).toThrow('--type does not apply to audit');
    expect(() => parseCommandLine(['audit', 'list'])).toThrow('audit takes no argument (got "list")');
  });

  it('names the option whose value is wrong', () => {
    expect(auditPage({})).toEqual({ startIndex: 0, limit: 50 });
    expect(auditPage({ limit: '1000', 'start-index': '20' })).toEqual({ startIndex: 20, limit: 1000 });
    expect(() => auditPage({ limit: '0' })).toThrow(new UsageError('--limit: must be a whole number from 1 to 1000'));
    expect(() => auditPage({ 'start-index': '-1' })).toThrow('--start-index: must be a whole number from 0 to 2147483647');
  });

  it('reads the filters by the rules of GET /v2/audit\'s, naming the option that is wrong', () => {
    expect(auditFilter({})).toEqual({});
    expect(auditFilter({ actor: '@ada', action: 'user.invited', room: '7', since: '2026-03-01', until: '2026-03-01' })).toEqual({
      by: { mention: 'ada' }, action: 'user.invited', roomId: 7, since: '2026-03-01T00:00:00.000Z', until: '2026-03-02T00:00:00.000Z',
    });
    expect(auditFilter({ actor: 'ada@example.com' })).toEqual({ by: { email: 'ada@example.com' } });
    expect(() => auditFilter({ action: 'user.teleported' })).toThrow(/^--action: must be one of room\.member_added, /);
    expect(() => auditFilter({ room: 'Ops' })).toThrow(new UsageError('--room: must be a room id, a whole number from 1 to 2147483647'));
    expect(() => auditFilter({ since: 'yesterday' })).toThrow(/^--since: must be an ISO 8601 date and time/);
    expect(() => auditFilter({ since: '2026-03-02', until: '2026-03-01' })).toThrow(new UsageError('--until: must be after --since'));
  });
});
