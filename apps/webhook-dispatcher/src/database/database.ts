import { Client } from 'pg';
import { DataSource, MigrationExecutor } from 'typeorm';
import { DISPATCHER_MIGRATIONS } from './migrations';

/** Not the rooms service's key: the two services migrate their own tables independently. */
const MIGRATION_LOCK_KEY = 7_411_902_002;

/**
 * Creates the database if it is missing (the rooms service does the same; whichever starts
 * first wins, the other finds it).
 */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_-]{1,63}$/.test(name)) {
    throw new Error(`DATABASE_URL: database name "${name}" must be 1-63 letters, digits, "_" or "-"`);
  }
  const adminUrl = new URL(databaseUrl);
  adminUrl.pathname = '/postgres';
  const client = new Client({ connectionString: adminUrl.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return;
    await client.query(`CREATE DATABASE "${name}"`).catch((err: { code?: string }) => {
      // 42P04 duplicate_database, 23505 unique_violation: another service won the race.
      if (err.code !== '42P04' && err.code !== '23505') throw err;
    });
  } finally {
    await client.end();
  }
}

/**
 * The dispatcher's connection pool. It shares the rooms service's database but keeps its own
 * migrations table, so neither service's migrations ever run the other's.
 */
export function createDispatcherDataSource(databaseUrl: string, poolSize: number): DataSource {
  return new DataSource({
    type: 'postgres',
    url: databaseUrl,
    entities: [],
    migrations: DISPATCHER_MIGRATIONS,
    migrationsTableName: 'dispatcher_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: { max: poolSize },
  });
}

/** Pending migrations, applied once however many replicas start together (session advisory lock). */
async function migrate(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    return (await executor.executePendingMigrations()).map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}

/** The database ready for the dispatcher: created if missing, its tables migrated, connected. */
export async function openDispatcherDatabase(databaseUrl: string, poolSize: number): Promise<DataSource> {
  await ensureDatabase(databaseUrl);
  const dataSource = createDispatcherDataSource(databaseUrl, poolSize);
  await dataSource.initialize();
  try {
    await migrate(dataSource);
  } catch (err) {
    await dataSource.destroy();
    throw err;
  }
  return dataSource;
}
