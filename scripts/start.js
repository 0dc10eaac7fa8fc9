#!/usr/bin/env node
// Runs the rooms service, the gateway and the webhook dispatcher as three processes.
// Output stays one JSON object per line (each carries its "service"). Ctrl-C stops all
// three cleanly; if one fails (say PostgreSQL is down), the others are stopped and the
// launcher exits with its code.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { SERVICES, root } = require('./services');
const { ensureDevSecretsKeys } = require('./dev-secrets-keys');

for (const s of SERVICES) {
  if (!fs.existsSync(s.entry)) {
    process.stderr.write(`${s.entry} is missing: run "npm run build" first.\n`);
    process.exit(1);
  }
}

let stopping = false;
let exitCode = 0;
const children = new Map();

function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) child.kill(signal);
  setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
  }, 10_000).unref();
}

// One METRICS_PORT for the three services of one machine would have the second and third fail
// on EADDRINUSE: given a port P, the gateway takes P, rooms P+1 and the dispatcher P+2, as the
// defaults are laid out (9464, 9465, 9466). 0 (any free port) is passed as it is.
const METRICS_OFFSET = { gateway: 0, rooms: 1, 'webhook-dispatcher': 2 };
const metricsBase = /^\d+$/.test(process.env.METRICS_PORT ?? '') ? Number(process.env.METRICS_PORT) : null;
if (metricsBase !== null && metricsBase > 65533) {
  process.stderr.write(`METRICS_PORT: npm start gives the three services ${metricsBase}, +1 and +2, so it must be at most 65533 (got ${metricsBase})\n`);
  process.exit(2);
}
// The keys that seal webhook and OAuth secrets at rest: without SECRETS_KEYS (or
// SECRETS_KEYS_FILE), a development key made once in data/secrets-keys (git-ignored).
const baseEnv = { ...process.env };
if (!process.env.SECRETS_KEYS?.trim() && !process.env.SECRETS_KEYS_FILE?.trim()) {
  const { file, created } = ensureDevSecretsKeys(root);
  baseEnv.SECRETS_KEYS_FILE = file;
  if (created) {
    process.stderr.write(`SECRETS_KEYS is not set: made a development key in ${path.relative(process.cwd(), file) || file} (git-ignored), `
      + 'used from now on. Keep it: the stored webhook and OAuth secrets need it. In production set SECRETS_KEYS (README: Secrets at rest).\n');
  }
}
const envOf = (s) => (metricsBase ? { ...baseEnv, METRICS_PORT: String(metricsBase + METRICS_OFFSET[s.name]) } : baseEnv);

for (const s of SERVICES) {
  const child = spawn(process.execPath, [...s.flags, '--enable-source-maps', s.entry], { cwd: root, stdio: 'inherit', env: envOf(s) });
  children.set(s.name, child);
  child.on('exit', (code, signal) => {
    children.delete(s.name);
    const failed = !stopping && (code !== 0 || signal !== null);
    if (failed) {
      process.stderr.write(`${s.name} exited (${signal ?? `code ${code}`}); stopping the other services.\n`);
      exitCode = code || 1;
      stopAll('SIGTERM');
    }
    if (children.size === 0) process.exit(exitCode);
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => stopAll(signal));
}

// Once the gateway answers, say where to go (on stderr: stdout stays one JSON object per line).
const address = (process.env.PUBLIC_BASE_URL || `http://${process.env.HOST && process.env.HOST !== '0.0.0.0' ? process.env.HOST : '127.0.0.1'}:${process.env.PORT || 8080}`).replace(/\/+$/, '');
(async () => {
  const until = Date.now() + 120_000;
  while (!stopping && Date.now() < until) {
    const ok = await fetch(`${address}/health`, { signal: AbortSignal.timeout(1000) }).then((r) => r.ok, () => false);
    if (ok) {
      process.stderr.write(`\nReady. Open ${address}/ for the console (sign in with a user's e-mail and password);\nthe API is at the same address, its reference at ${address}/docs/api/v2.\n\n`);
      return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
})();
