import { Client } from 'pg';
import { DataSource, MigrationExecutor } from 'typeorm';

/** The database a URL names; refused unless it is a plain name we can quote safely. */
export function databaseName(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(name)) {
    throw new Error(`DATABASE_URL: database name "${name}" must be 1-63 letters, digits, "_" or "-"`);
  }
  return name;
}

/**
 * Creates the database if it is missing (true when this call created it); tolerates a
 * replica, or the other service sharing the database, creating it at the same time.
 */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const name = databaseName(databaseUrl);
  const adminUrl = new URL(databaseUrl);
  adminUrl.pathname = '/postgres';
  const client = new Client({ connectionString: adminUrl.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    try {
      await client.query(`CREATE DATABASE "${name}"`);
      return true;
    } catch (err) {
      // 42P04 duplicate_database, 23505 unique_violation: another process won the race.
      const code = (err as { code?: string }).code;
      if (code === '42P04' || code === '23505') return false;
      throw err;
    }
  } finally {
    await client.end();
  }
}

/**
 * Applies pending migrations under a session advisory lock (each service its own key), so
 * that replicas starting together migrate once and the others wait, then find nothing to
 * do. The migrations run on the connection that holds the lock: a pool of one connection
 * must not deadlock.
 */
export async function migrateUnderLock(dataSource: DataSource, lockKey: number): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [lockKey]);
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    return (await executor.executePendingMigrations()).map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [lockKey]).catch(() => undefined);
    await runner.release();
  }
}

/** A database ready for use: created if missing, connected, migrated (closed again if migrating fails). */
export async function openMigratedDatabase(databaseUrl: string, dataSource: DataSource, lockKey: number): Promise<DataSource> {
  await ensureDatabase(databaseUrl);
  await dataSource.initialize();
  try {
    await migrateUnderLock(dataSource, lockKey);
  } catch (err) {
    await dataSource.destroy();
    throw err;
  }
  return dataSource;
}
