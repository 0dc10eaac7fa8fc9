import { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id              serial PRIMARY KEY,
        name            varchar(50)  NOT NULL,
        mention_name    varchar(50)  NOT NULL,
        email           varchar(254) NOT NULL,
        title           varchar(50)  NOT NULL DEFAULT '',
        password_hash   text         NOT NULL,
        is_group_admin  boolean      NOT NULL DEFAULT false,
        timezone        varchar(64)  NOT NULL DEFAULT 'UTC',
        status          varchar(16)  NOT NULL DEFAULT 'offline',
        status_message  varchar(255) NOT NULL DEFAULT '',
        is_deleted      boolean      NOT NULL DEFAULT false,
        version         varchar(16)  NOT NULL,
        created_at      timestamptz  NOT NULL DEFAULT now(),
        last_active_at  timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX users_email_live_uq ON users (lower(email)) WHERE NOT is_deleted`);
    await q.query(`CREATE UNIQUE INDEX users_mention_live_uq ON users (lower(mention_name)) WHERE NOT is_deleted`);

    await q.query(`
      CREATE TABLE rooms (
        id              serial PRIMARY KEY,
        name            varchar(50)  NOT NULL,
        topic           varchar(250) NOT NULL DEFAULT '',
        privacy         varchar(7)   NOT NULL CHECK (privacy IN ('public', 'private')),
        owner_user_id   integer      NOT NULL REFERENCES users (id),
        is_archived     boolean      NOT NULL DEFAULT false,
        guest_access_token varchar(40),
        version         varchar(16)  NOT NULL,
        created_at      timestamptz  NOT NULL DEFAULT now(),
        last_active_at  timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX rooms_name_uq ON rooms (lower(name))`);

    await q.query(`
      CREATE TABLE room_members (
        room_id  integer NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        user_id  integer NOT NULL REFERENCES users (id),
        PRIMARY KEY (room_id, user_id)
      )`);

    await q.query(`
      CREATE TABLE messages (
        id              uuid         PRIMARY KEY,
        room_id         integer      NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
        type            varchar(16)  NOT NULL,
        from_label      varchar(64),
        user_id         integer      REFERENCES users (id),
        body            text         NOT NULL,
        message_format  varchar(4)   NOT NULL,
        color           varchar(6),
        notify          boolean      NOT NULL DEFAULT false,
        mention_user_ids integer[]   NOT NULL DEFAULT '{}',
        created_at      timestamptz  NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX messages_room_time_idx ON messages (room_id, created_at DESC)`);

    await q.query(`
      CREATE TABLE api_tokens (
        id            serial PRIMARY KEY,
        token_hash    char(64)     NOT NULL UNIQUE,
        kind          varchar(12)  NOT NULL CHECK (kind IN ('admin', 'notification')),
        label         varchar(100) NOT NULL DEFAULT '',
        created_at    timestamptz  NOT NULL DEFAULT now(),
        revoked_at    timestamptz
      )`);
    await q.query(`
      CREATE TABLE api_token_rate_windows (
        token_id      integer     PRIMARY KEY REFERENCES api_tokens (id) ON DELETE CASCADE,
        window_start  timestamptz NOT NULL,
        request_count integer     NOT NULL
      )`);

    await q.query(`
      CREATE TABLE outbox (
        id           bigserial   PRIMARY KEY,
        event_id     uuid        NOT NULL UNIQUE,
        routing_key  varchar(100) NOT NULL,
        envelope     jsonb       NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now(),
        attempts     integer     NOT NULL DEFAULT 0,
        last_error   text
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['outbox', 'api_token_rate_windows', 'api_tokens', 'messages', 'room_members', 'rooms', 'users']) {
      await q.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
