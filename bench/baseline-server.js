// The bare baseline: Fastify, one route, one INSERT into PostgreSQL per request (pg Pool of
// 10), form-encoded body parsed like rooms/message. It tells what this machine can do at
// best, so that the service's figures read as a fraction of it.
// Env: DATABASE_URL, BASELINE_TABLE (default bench_baseline). Reports { port } over IPC.
const Fastify = require('fastify');
const { Pool } = require('pg');

const table = process.env.BASELINE_TABLE || 'bench_baseline';
if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`bad BASELINE_TABLE ${table}`);
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });

app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (req, body, done) => {
  done(null, Object.fromEntries(new URLSearchParams(body)));
});

app.post('/message', async (req, reply) => {
  const { room_id: room, message } = req.body || {};
  if (!room || !message) return reply.code(400).send({ error: 'room_id and message are required' });
  await pool.query(`INSERT INTO ${table} (room, body) VALUES ($1, $2)`, [room, message]);
  return { status: 'sent' };
});

async function main() {
  await pool.query(`CREATE TABLE IF NOT EXISTS ${table} (
    id bigserial PRIMARY KEY, room text NOT NULL, body text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
  await app.listen({ host: '127.0.0.1', port: 0 });
  process.send({ port: app.server.address().port });
}

async function stop() {
  await app.close();
  await pool.end();
  process.exit(0);
}

process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop); // the bench has gone
pool.on('error', (err) => console.error(`idle PostgreSQL client: ${err.message}`));
main().catch((err) => {
  console.error(err);
  process.exit(1);
});
