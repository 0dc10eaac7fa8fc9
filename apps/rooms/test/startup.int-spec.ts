import { DependencyUnreachableError, parseConfig } from '@app/common';
import { DataSource } from 'typeorm';
import { startRoomsService } from '../src/bootstrap';
import { roomsConfigShape } from '../src/config';
import { openDatabase } from '../src/database/database';
import { MIGRATIONS } from '../src/database/migrations';
import { databaseUrl, dropTestDatabase, sql, TEST_SECRETS_KEYS, testDatabaseUrl, testInfra, uniqueName } from './support';


describe('rooms service start-up (real Postgres, RabbitMQ)', () => {
  const infra = testInfra();

  describe('database creation and migrations', () => {
    const dbUrl = testDatabaseUrl('chat_test_mig');
    afterAll(() => dropTestDatabase(dbUrl));

    it('is safe when several replicas start at once on a brand-new database', async () => {
      const opened = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => openDatabase(dbUrl, 1 + (i % 3))));
      const sources = opened.filter((r): r is PromiseFulfilledResult<DataSource> => r.status === 'fulfilled').map((r) => r.value);
      try {
        expect(opened.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
        const rows = await sql<{ name: string; n: string }>(dbUrl,
          'SELECT name, count(*) AS n FROM schema_migrations GROUP BY name ORDER BY name');
        expect(rows).toEqual(MIGRATIONS.map((m) => ({ name: new m().name, n: '1' })).sort((a, b) => a.name.localeCompare(b.name)));
        expect(rows.map((r) => r.name)).toEqual(['Addons1764200000000', 'AuditLog1766400000000', 'Bridges1766500000000', 'FileLinkRevocation1766800000000', 'HotPath1763800000000', 'InitialSchema1763700000000', 'Invitations1766700000000', 'OrderedEventRouting1764700000000', 'OutboxTraceContext1765100000000', 'ReadMarkers1766600000000', 'RegistrationChanges1765200000000', 'RegistrationsVersion1764400000000', 'RoomEvents1764800000000', 'RoomFiles1766100000000', 'RoomOrder1764600000000', 'SealedWebhookUrls1766850000000', 'SecretsAtRest1766000000000', 'Sessions1764900000000', 'V2Api1764000000000', 'WebhookDeliveryMode1764650000000', 'WebhookHealth1764500000000', 'WebhookKeysPerAddOn1766200000000', 'Webhooks1764100000000']);
        const tables = await sql<{ tablename: string }>(dbUrl, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
        expect(tables.map((t) => t.tablename).sort()).toEqual(
          ['addon_installations', 'api_tokens', 'applied_commands', 'audit_log', 'messages', 'oauth_clients', 'outbox', 'private_messages', 'private_read_markers', 'registrations_version', 'room_events', 'room_files', 'room_members', 'room_participants', 'room_read_markers', 'room_sequences', 'rooms', 'schema_migrations', 'user_invitations', 'users', 'webhook_health', 'webhooks', 'webhooks_removed']);
        // A room's last activity is derived from its messages: no column to update per message.
        const roomColumns = await sql<{ column_name: string }>(dbUrl,
          "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'rooms'");
        expect(roomColumns.map((c) => c.column_name)).not.toContain('last_active_at');
        for (const ds of sources) expect(await ds.query('SELECT count(*)::int AS n FROM users')).toEqual([{ n: 0 }]);
      } finally {
        await Promise.all(sources.map((ds) => ds.destroy()));
      }
      // Opening again finds nothing to do.
      const again = await openDatabase(dbUrl, 1);
      try {
        expect(await sql(dbUrl, 'SELECT count(*)::int AS n FROM schema_migrations')).toEqual([{ n: MIGRATIONS.length }]);
      } finally {
        await again.destroy();
      }
    });

    it('works with a pool of a single connection', async () => {
      const url = testDatabaseUrl('chat_test_pool1');
      try {
        let timer: NodeJS.Timeout | undefined;
        const ds = await Promise.race([
          openDatabase(url, 1),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error('openDatabase with a pool of 1 hung')), 15_000);
          }),
        ]).finally(() => clearTimeout(timer));
        expect(await sql(url, 'SELECT count(*)::int AS n FROM schema_migrations')).toEqual([{ n: MIGRATIONS.length }]);
        await ds.destroy();
      } finally {
        await dropTestDatabase(url);
      }
    });
  });

  describe('unreachable dependencies', () => {
    const config = (env: Record<string, string>) => parseConfig(roomsConfigShape, {
      AMQP_URL: infra.amqpUrl,
      DATABASE_URL: databaseUrl(infra.pgServerUrl, uniqueName('chat_test_never')),
      BROKER_NAMESPACE: uniqueName('t'),
      LOG_LEVEL: 'silent',
      METRICS_PORT: '0',
      SECRETS_KEYS: TEST_SECRETS_KEYS,
      STARTUP_TIMEOUT_SECONDS: '1',
      ...env,
    });

    async function startFailure(env: Record<string, string>): Promise<DependencyUnreachableError> {
      const started = Date.now();
      try {
        const app = await startRoomsService(config(env));
        await app.close();
      } catch (err) {
        expect(Date.now() - started).toBeLessThan(10_000);
        return err as DependencyUnreachableError;
      }
      throw new Error('startRoomsService should have failed');
    }

    it('names PostgreSQL, its address and the variable when DATABASE_URL points at a closed port', async () => {
      const err = await startFailure({ DATABASE_URL: 'postgres://postgres:secret@127.0.0.1:1/x' });
      expect(err).toBeInstanceOf(DependencyUnreachableError);
      expect(err.dependency).toBe('PostgreSQL');
      expect(err.message).toContain('PostgreSQL');
      expect(err.message).toContain('127.0.0.1:1');
      expect(err.message).toContain('DATABASE_URL');
      expect(err.message).not.toContain('secret');
    });

    it('names RabbitMQ, its address and the variable when AMQP_URL points at a closed port', async () => {
      const err = await startFailure({ AMQP_URL: 'amqp://guest:secret@127.0.0.1:1' });
      expect(err).toBeInstanceOf(DependencyUnreachableError);
      expect(err.dependency).toBe('RabbitMQ');
      expect(err.message).toContain('RabbitMQ');
      expect(err.message).toContain('127.0.0.1:1');
      expect(err.message).toContain('AMQP_URL');
      expect(err.message).not.toContain('secret');
    });

    it('says the running broker refused the credentials in AMQP_URL, not to start it, when the password is wrong', async () => {
      const url = new URL(infra.amqpUrl);
      url.password = 'wrong-S3cretPw';
      const err = await startFailure({ AMQP_URL: url.toString() });
      expect(err).toBeInstanceOf(DependencyUnreachableError);
      expect(err.message).toContain(`RabbitMQ at ${url.hostname}:${url.port || 5672} refused the credentials in AMQP_URL`);
      expect(err.message).toContain('ACCESS_REFUSED');
      expect(err.message).not.toMatch(/Cannot reach|rabbitmq-server -detached/);
      expect(err.message).not.toContain('S3cretPw');
    });
  });
});
