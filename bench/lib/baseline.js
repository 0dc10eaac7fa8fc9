// Starts bench/baseline-server.js as its own process and measures it like the scenarios.
const { fork } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');
const { measure, form, FORM } = require('./load');
const { track, stopProcess } = require('./processes');

const SERVER = path.join(__dirname, '..', 'baseline-server.js');

function start(databaseUrl, table, logFile) {
  const out = fs.openSync(logFile, 'a');
  const child = track(fork(SERVER, [], {
    env: { ...process.env, DATABASE_URL: databaseUrl, BASELINE_TABLE: table },
    stdio: ['ignore', out, out, 'ipc'],
  }));
  fs.closeSync(out);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('baseline server did not start within 30 s')), 30_000);
    child.once('message', ({ port }) => {
      clearTimeout(timer);
      resolve({ child, url: `http://127.0.0.1:${port}` });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`baseline server exited with code ${code}; see ${logFile}`));
    });
  });
}

/** The same request shape and autocannon settings as message-one-room, against the baseline. */
async function measureBaseline({ system, settings, logFile, runId, probe }) {
  const table = system.mode === 'local' ? 'bench_baseline' : `bench_baseline_${runId}`;
  const server = await start(system.databaseUrl, table, logFile);
  try {
    // The baseline server is counted as its own group (the system's services are idle).
    const probeWithServer = probe && (() => probe([{ name: 'baseline', pid: server.child.pid }]));
    return await measure(server.url, settings, () => {
      let n = 0;
      return {
        method: 'POST',
        path: '/message',
        headers: FORM,
        requests: [{
          setupRequest: (req) => ({
            ...req,
            body: form({ auth_token: 'x'.repeat(40), room_id: 'baseline', from: 'bench', message: `hello ${++n}`, message_format: 'text' }),
          }),
        }],
      };
    }, probeWithServer);
  } finally {
    await stopProcess(server.child);
    // An external system's database is not ours: leave no table behind in it.
    if (system.mode !== 'local') await dropTable(system.databaseUrl, table).catch(() => undefined);
  }
}

async function dropTable(databaseUrl, table) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP TABLE IF EXISTS ${table}`);
  } finally {
    await client.end();
  }
}

module.exports = { measureBaseline };
