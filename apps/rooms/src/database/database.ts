import { Client } from 'pg';
import { DataSource, MigrationExecutor } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** An arbitrary but fixed key: every replica takes this lock before migrating. */
const MIGRATION_LOCK_KEY = 7_411_902_001;

export function databaseName(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(name)) {
    throw new Error(`DATABASE_URL: database name "${name}" must be 1-63 letters, digits, "_" or "-"`);
  }
  return name;
}

/** Creates the database if it is missing; tolerates a replica creating it at the same time. */
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
      // 42P04 duplicate_database, 23505 unique_violation: another replica won the race.
      const code = (err as { code?: string }).code;
      if (code === '42P04' || code === '23505') return false;
      throw err;
    }
  } finally {
    await client.end();
  }
}

export function createDataSource(databaseUrl: string, poolSize = 10): DataSource {
  return new DataSource({
    type: 'postgres',
    url: databaseUrl,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: { max: poolSize },
  });
}

/**
 * Applies pending migrations under a session advisory lock, so that replicas starting
 * together migrate once and the others wait, then find nothing to do. The migrations run
 * on the connection that holds the lock: a pool of one connection must not deadlock.
 */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    const applied = await executor.executePendingMigrations();
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}

/** Database ready for use: created if missing, migrated, connected. */
export async function openDatabase(databaseUrl: string, poolSize = 10): Promise<DataSource> {
  await ensureDatabase(databaseUrl);
  const dataSource = createDataSource(databaseUrl, poolSize);
  await dataSource.initialize();
  try {
    await migrate(dataSource);
  } catch (err) {
    await dataSource.destroy();
    throw err;
  }
  return dataSource;
}
