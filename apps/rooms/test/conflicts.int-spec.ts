import { commandFailure } from '@app/contracts';
import { UnitOfWork } from '../src/outbox/unit-of-work';
import { inProcess, RoomsStack, sql, startStack } from './support';

/**
 * Commands whose transactions deadlock (they lock the same rows in opposite orders, as a
 * room's deletion and a health report that disables one of its webhooks and posts to the
 * room can): PostgreSQL rolls one back, and the unit of work applies it again, so both
 * callers get their answer. Real PostgreSQL, its own deadlock detection (deadlock_timeout).
 */
describe('unit of work: a command that loses a deadlock is applied again', () => {
  let stack: RoomsStack;
  let uow: UnitOfWork;

  beforeAll(async () => {
    stack = await startStack();
    uow = stack.rooms.get(UnitOfWork);
    await sql(stack.databaseUrl, 'CREATE TABLE conflict_probe (id int PRIMARY KEY, touched int NOT NULL DEFAULT 0)');
    await sql(stack.databaseUrl, 'INSERT INTO conflict_probe (id) VALUES (1), (2)');
  });
  afterAll(async () => stack?.stop());

  /** Locks `first`, waits for the other command to lock the other row, then wants `second`. */
  const crossing = (first: number, second: number, runs: { n: number }) => uow.apply(inProcess('test.crossing'), async (tx) => {
    runs.n++;
    await tx.manager.query('UPDATE conflict_probe SET touched = touched + 1 WHERE id = $1', [first]);
    await tx.manager.query('SELECT pg_sleep(0.3)');
    await tx.manager.query('UPDATE conflict_probe SET touched = touched + 1 WHERE id = $1', [second]);
    return { locked: [first, second] };
  });

  it('both commands answer; the one PostgreSQL chose as the victim ran twice, and each change is in once', async () => {
    const a = { n: 0 };
    const b = { n: 0 };
    const answers = await Promise.all([crossing(1, 2, a), crossing(2, 1, b)]);
    expect(answers).toEqual([{ locked: [1, 2] }, { locked: [2, 1] }]);
    // One ran once, the other twice (its first transaction rolled back whole).
    expect([a.n, b.n].sort()).toEqual([1, 2]);
    const rows = await sql(stack.databaseUrl, 'SELECT id, touched FROM conflict_probe ORDER BY id');
    expect(rows).toEqual([{ id: 1, touched: 2 }, { id: 2, touched: 2 }]);
  }, 20_000);

  it('a command that fails for its own reasons is answered with its failure at once, not applied again', async () => {
    const runs = { n: 0 };
    await expect(uow.apply(inProcess('test.refused'), async () => {
      runs.n++;
      throw commandFailure('invalid', 'rule', 'probe', { problem: 'refused on purpose' });
    })).rejects.toMatchObject({ error: { code: 'invalid' } });
    expect(runs.n).toBe(1);
  });
});
