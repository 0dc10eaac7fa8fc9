import { openMigratedDatabase } from '@app/common';
import { DataSource } from 'typeorm';
import { DISPATCHER_MIGRATIONS } from './migrations';

/** Not the rooms service's key: the two services migrate their own tables independently. */
const MIGRATION_LOCK_KEY = 7_411_902_002;

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

/** The database ready for the dispatcher: created if missing (by whichever service starts first), its tables migrated, connected. */
export function openDispatcherDatabase(databaseUrl: string, poolSize: number): Promise<DataSource> {
  return openMigratedDatabase(databaseUrl, createDispatcherDataSource(databaseUrl, poolSize), MIGRATION_LOCK_KEY);
}
