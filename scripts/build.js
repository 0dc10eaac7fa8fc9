#!/usr/bin/env node
// Builds the three apps with the Nest CLI (tsc, path aliases rewritten to relative imports).
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const nest = path.join(root, 'node_modules', '.bin', 'nest');
for (const app of ['rooms', 'gateway', 'webhook-dispatcher']) {
  const result = spawnSync(nest, ['build', app], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`build of ${app} failed\n`);
    process.exit(result.status ?? 1);
  }
}
