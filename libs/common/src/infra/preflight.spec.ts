import { describeAddress, postgresFailureMessage, rabbitFailureMessage, redisFailureMessage } from './preflight';

/** The errors as the drivers raise them (amqplib, pg, ioredis), copied from real failures. */
const accessRefused = new Error('Handshake terminated by server: 403 (ACCESS-REFUSED) with message "ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. For details see the broker logfile."');
const refusedPort = (port: number) => Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:${port}`), { code: 'ECONNREFUSED' });
const pgAuth = Object.assign(new Error('password authentication failed for user "chat"'), { code: '28P01' });
const pgRole = Object.assign(new Error('role "nosuchuser" does not exist'), { code: '28000' });

describe('rabbitFailureMessage', () => {
  it('says a running broker refused the credentials, names the user, shows no password and does not say to start it', () => {
    const text = rabbitFailureMessage(['amqp://chat:S3cretPw@rabbit.internal:5672'], accessRefused);
    expect(text).toBe(
      'RabbitMQ at rabbit.internal:5672 refused the credentials in AMQP_URL (user "chat"): ACCESS_REFUSED.\n' +
      'Check the user name and password in AMQP_URL, or create the user: rabbitmqctl add_user USER PASSWORD && ' +
      'rabbitmqctl set_permissions -p / USER ".*" ".*" ".*".');
    expect(text).not.toContain('S3cretPw');
    expect(text).not.toMatch(/Cannot reach|Start it|rabbitmq-server/);
  });

  it('reminds that guest may only connect from localhost when guest is refused from afar', () => {
    expect(rabbitFailureMessage('amqp://guest:guest@rabbit.internal', accessRefused)).toContain('The guest user may only connect from localhost');
    expect(rabbitFailureMessage('amqp://guest:wrong@127.0.0.1', accessRefused)).not.toContain('localhost unless');
  });

  it('says how to start a broker that does not answer, on the port AMQP_URL names', () => {
    expect(rabbitFailureMessage(['amqp://guest:guest@127.0.0.1:5672'], refusedPort(5672))).toBe(
      'Cannot reach RabbitMQ at 127.0.0.1:5672 (AMQP_URL): connect ECONNREFUSED 127.0.0.1:5672.\n' +
      'Start it with: rabbitmq-server -detached\n' +
      '  (or: docker compose up -d rabbitmq), or point AMQP_URL at a running broker.');
    expect(rabbitFailureMessage('amqp://127.0.0.1:5673', refusedPort(5673))).toContain('Start it with: RABBITMQ_NODE_PORT=5673 rabbitmq-server -detached\n');
  });
});

describe('redisFailureMessage', () => {
  it('starts Redis where REDIS_URL points, and ends its sentence with one full stop', () => {
    const text = redisFailureMessage('redis://127.0.0.1:5999', new Error('Connection is closed.'));
    expect(text).toBe(
      'Cannot reach Redis at 127.0.0.1:5999 (REDIS_URL): Connection is closed.\n' +
      'Start it with: redis-server --daemonize yes --bind 127.0.0.1 --port 5999 --save "" --appendonly no\n' +
      '  or point REDIS_URL at a running server.');
    expect(redisFailureMessage('redis://localhost', refusedPort(6379))).toBe(
      'Cannot reach Redis at localhost:6379 (REDIS_URL): connect ECONNREFUSED 127.0.0.1:6379.\n' +
      'Start it with: redis-server --daemonize yes --bind localhost --port 6379 --save "" --appendonly no\n' +
      '  (or: docker compose up -d redis), or point REDIS_URL at a running server.');
  });

  it('says refused credentials are to check, not a server to start, without the password', () => {
    const text = redisFailureMessage('redis://:S3cretPw@cache:6380', new Error('WRONGPASS invalid username-password pair or user is disabled.'));
    expect(text).toBe(
      'Redis at cache:6380 refused the credentials in REDIS_URL: WRONGPASS invalid username-password pair or user is disabled.\n' +
      'Check the user name and password in REDIS_URL (redis://USER:PASSWORD@host:port, or redis://:PASSWORD@host:port for requirepass).');
    expect(text).not.toContain('S3cretPw');
    expect(redisFailureMessage('redis://cache', new Error('NOAUTH Authentication required.'))).toMatch(/^Redis at cache:6379 refused the credentials/);
  });
});

describe('postgresFailureMessage', () => {
  it('says refused credentials are to check, not a server to start', () => {
    for (const err of [pgAuth, pgRole]) {
      const text = postgresFailureMessage('postgres://chat:S3cretPw@db:5432/chat', err);
      expect(text).toBe(
        `PostgreSQL at db:5432 refused the credentials in DATABASE_URL: ${err.code} ${err.message}.\n` +
        'Check the user name and password in DATABASE_URL (and pg_hba.conf, which may refuse the user from this address).');
      expect(text).not.toContain('S3cretPw');
    }
  });

  it('says how to start a server that does not answer', () => {
    expect(postgresFailureMessage('postgres://postgres@127.0.0.1:1/chat', refusedPort(1))).toBe(
      'Cannot reach PostgreSQL at 127.0.0.1:1 (DATABASE_URL): connect ECONNREFUSED 127.0.0.1:1.\n' +
      'Start it with: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start\n' +
      '  (or: docker compose up -d postgres), or point DATABASE_URL at a running server.');
  });
});

describe('describeAddress', () => {
  it('gives host:port, and of text that does not parse no password', () => {
    expect(describeAddress('redis://:pw@cache:6380', 6379)).toBe('cache:6380');
    expect(describeAddress('amqp://u:S3c/retPw@h:99999', 5672)).not.toContain('S3c');
  });
});
