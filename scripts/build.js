#!/usr/bin/env node
// Builds the three apps with the Nest CLI (tsc, path aliases rewritten to relative imports),
// then the browser console (type-checked by tsc, bundled by scripts/build-console.js).
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
const steps = [
  [path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', path.join(root, 'apps', 'console', 'tsconfig.json')], 'type check of the console'],
  [process.execPath, [path.join(__dirname, 'build-console.js')], 'build of the console'],
];
for (const [command, args, what] of steps) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`${what} failed\n`);
    process.exit(result.status ?? 1);
  }
}
