import { describeIssue } from '@app/contracts';
import { auditListQuery } from './audit.schemas';

const parse = (q: Record<string, string>) => {
  const r = auditListQuery.safeParse(q);
  return r.success ? r.data : describeIssue(r.error.issues[0]);
};

describe('the audit log\'s filters (GET /v2/audit)', () => {
  it('reads a user by id, e-mail address or @mention name, an action, a room id and a period', () => {
    expect(parse({ actor: '42', action: 'user.invited', room: '7', since: '2026-03-01T12:00:00+02:00', until: '2026-03-02T00:00:00Z' })).toMatchObject({
      actor: { id: 42 }, action: 'user.invited', room: 7, since: '2026-03-01T10:00:00.000Z', until: '2026-03-02T00:00:00.000Z',
    });
    expect(parse({ actor: 'ada@example.com' })).toMatchObject({ actor: { email: 'ada@example.com' } });
    expect(parse({ actor: '@ada' })).toMatchObject({ actor: { mention: 'ada' } });
    expect(parse({ actor: '', action: undefined as never })).toMatchObject({ actor: undefined, action: undefined, 'start-index': 0, 'max-results': 100 });
  });

  it('reads a date as the whole day (UTC): since from its start, until through its end', () => {
    expect(parse({ since: '2026-02-28', until: '2026-02-28' })).toMatchObject({ since: '2026-02-28T00:00:00.000Z', until: '2026-03-01T00:00:00.000Z' });
    expect(parse({ until: '9999-12-31' })).toMatchObject({ until: '9999-12-31T23:59:59.999Z' });
  });

  it('names the filter and its rule when one is wrong', () => {
    expect(parse({ action: 'user.teleported' })).toMatch(/^action: must be one of room\.member_added, .*user\.invited/);
    expect(parse({ room: 'ops' })).toBe('room: must be a room id, a whole number from 1 to 2147483647 (got "ops")');
    expect(parse({ room: '0' })).toMatch(/^room: must be a room id/);
    expect(parse({ since: 'yesterday' })).toMatch(/^since: must be an ISO 8601 date and time .*, or a date such as 2025-03-01$/);
    expect(parse({ until: '2026-02-30' })).toBe('until: must be a real date (got "2026-02-30")');
    expect(parse({ actor: 'x'.repeat(255) })).toMatch(/^actor: must be a user id, e-mail address or @mention name/);
    expect(parse({ since: '2026-03-02', until: '2026-03-01' })).toBe('until: must be after since');
  });
});
