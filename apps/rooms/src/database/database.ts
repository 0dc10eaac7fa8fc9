import { migrateUnderLock, openMigratedDatabase } from '@app/common';
import { DataSource } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** An arbitrary but fixed key: every replica takes this lock before migrating. */
const MIGRATION_LOCK_KEY = 7_411_902_001;

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

/** Pending migrations of the rooms service, applied once however many replicas start together. */
export const migrate = (dataSource: DataSource): Promise<string[]> => migrateUnderLock(dataSource, MIGRATION_LOCK_KEY);

/** Database ready for use: created if missing, migrated, connected. */
export function openDatabase(databaseUrl: string, poolSize = 10): Promise<DataSource> {
  return openMigratedDatabase(databaseUrl, createDataSource(databaseUrl, poolSize), MIGRATION_LOCK_KEY);
}
