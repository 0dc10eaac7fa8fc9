// The ledger and clean-up of the tests (test/support/system-state.ts), for the bench: bundled
// from the TypeScript by esbuild on first use, so that the bench removes what it made with the
// same code as the tests (the queue names the services declare, the delay queues of a retry
// schedule), and a bench killed with `kill -9` is cleaned up by the next bench or test run.
const fs = require('node:fs');
const path = require('node:path');
const { root } = require('../../scripts/services');

let loaded;

/** { trackTestState, removeTestState, sweepAbandonedTestState, parseRetrySchedule, DEFAULT_RETRY_SCHEDULE_MS } */
function systemState() {
  if (loaded) return loaded;
  const esbuild = require('esbuild');
  // Inside the project, so that the bundle's imports of packages resolve from its node_modules.
  const dir = path.join(root, 'node_modules', '.cache', 'chat-room-service');
  const outfile = path.join(dir, `system-state-${process.pid}.js`);
  fs.mkdirSync(dir, { recursive: true });
  esbuild.buildSync({
    entryPoints: [path.join(root, 'test', 'support', 'system-state.ts')],
    tsconfig: path.join(root, 'tsconfig.json'), // @app/* paths
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    outfile,
    logLevel: 'error',
  });
  try {
    loaded = require(outfile);
  } finally {
    fs.rmSync(outfile, { force: true });
  }
  return loaded;
}

module.exports = { systemState };
