import { randomUUID } from 'node:crypto';
import { createLogger } from '@app/common';
import { DataSource } from 'typeorm';
import { dropTestDatabase, testDatabaseUrl } from '../../../test/support/common';
import { openDispatcherDatabase } from '../src/database/database';
import { RecordPruner } from '../src/delivery/record-pruner';

/** The dispatcher's own tables in a database of this test's, migrated as the dispatcher migrates them. */
describe('pruning old delivery records (real PostgreSQL)', () => {
  let url: string;
  let db: DataSource;
  const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');

  /** A delivery created `daysAgo` days ago in `status`, with one attempt. */
  const delivery = async (daysAgo: number, status: string) => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO webhook_deliveries (id, webhook_id, event, event_id, room_id, status, attempts, envelope, created_at)
       VALUES ($1, 1, 'room_message', $2, 1, $3, 1, '{}', now() - make_interval(days => $4))`, [id, randomUUID(), status, daysAgo]);
    await db.query(`INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status) VALUES ($1, 1, now(), 5, 200)`, [id]);
    return id;
  };
  const remaining = async () => (await db.query('SELECT id FROM webhook_deliveries')).map((r: { id: string }) => r.id).sort();
  const attempts = async () => (await db.query('SELECT count(*)::int AS n FROM webhook_attempts'))[0].n as number;

  beforeAll(async () => {
    url = testDatabaseUrl('retention');
    db = await openDispatcherDatabase(url, 4);
  });

  afterAll(async () => {
    await db?.destroy().catch(() => undefined);
    await dropTestDatabase(url);
  });

  it('deletes finished deliveries past the retention with their attempts, in batches; keeps the rest', async () => {
    const old = [await delivery(40, 'delivered'), await delivery(31, 'failed'), await delivery(45, 'cancelled'), await delivery(50, 'delivered')];
    const kept = [
      await delivery(40, 'pending'), await delivery(40, 'retrying'), // unfinished, whatever their age
      await delivery(29, 'delivered'), await delivery(0, 'failed'), // within the retention
    ];
    // Without a retention of their own, failed deliveries are kept as long as the others.
    const pruner = new RecordPruner(db, logger, { retentionDays: 30, batch: 3 });
    expect(await pruner.runOnce()).toBe(old.length);
    expect(await remaining()).toEqual([...kept].sort());
    expect(await attempts()).toBe(kept.length);
    expect(await pruner.runOnce()).toBe(0);
    await db.query('DELETE FROM webhook_deliveries');
  });

  it('keeps failed deliveries for their own, longer retention (WEBHOOK_FAILED_RETENTION_DAYS)', async () => {
    const old = [
      await delivery(31, 'delivered'), await delivery(31, 'cancelled'), // past the 30 days of the finished ones
      await delivery(91, 'failed'), await delivery(200, 'failed'), // past the 90 days of the failed ones
    ];
    const kept = [
      await delivery(31, 'failed'), await delivery(89, 'failed'), // failed, within their 90 days
      await delivery(29, 'delivered'), await delivery(100, 'retrying'),
    ];
    const pruner = new RecordPruner(db, logger, { retentionDays: 30, failedRetentionDays: 90, batch: 1 });
    expect(await pruner.runOnce()).toBe(old.length);
    expect(await remaining()).toEqual([...kept].sort());
    expect(await attempts()).toBe(kept.length);
    await db.query('DELETE FROM webhook_deliveries');
  });

  it('goes on from where each batch ended: rows of one instant across a batch boundary, and kept rows older than the pruned ones', async () => {
    const at = async (ids: string[], sql: string) => db.query(`UPDATE webhook_deliveries SET created_at = ${sql} WHERE id = ANY($1)`, [ids]);
    // Failed ones within their 90 days, older than the delivered ones past their 30: each batch walks past them once.
    const kept = [await delivery(80, 'failed'), await delivery(70, 'failed'), await delivery(60, 'retrying'), await delivery(10, 'delivered')];
    const old = [];
    for (let i = 0; i < 5; i++) old.push(await delivery(50 - i, 'delivered'));
    // Three of them at one instant, to the microsecond: a batch of two ends among them.
    await at(old.slice(1, 4), `date_trunc('second', now()) - interval '45 days' + interval '123456 microseconds'`);
    const pruner = new RecordPruner(db, logger, { retentionDays: 30, failedRetentionDays: 90, batch: 2 });
    expect(await pruner.runOnce()).toBe(old.length);
    expect(await remaining()).toEqual([...kept].sort());
    await db.query('DELETE FROM webhook_deliveries');
  });

  it('lets one replica at a time prune: another holding the lock makes this one skip', async () => {
    await delivery(60, 'delivered');
    const other = db.createQueryRunner();
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock(7411904)');
      expect(await new RecordPruner(db, logger, { retentionDays: 30 }).runOnce()).toBe(0);
      await other.query('SELECT pg_advisory_unlock(7411904)');
      expect(await new RecordPruner(db, logger, { retentionDays: 30 }).runOnce()).toBe(1);
    } finally {
      await other.release();
    }
  });
});
