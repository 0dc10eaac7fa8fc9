#!/usr/bin/env node
// Writes docs/access.md from the access model (libs/contracts/src/access/access-model.ts),
// compiled on the fly by esbuild (no build needed). Its unit test fails while the page is stale.
const { writeFileSync } = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');
const out = esbuild.buildSync({
  entryPoints: [path.join(root, 'libs', 'contracts', 'src', 'access', 'access-model.ts')],
  bundle: true, platform: 'node', format: 'cjs', write: false, logLevel: 'error',
});
const module_ = { exports: {} };
new Function('module', 'exports', 'require', out.outputFiles[0].text)(module_, module_.exports, require);
writeFileSync(path.join(root, 'docs', 'access.md'), module_.exports.renderAccessDoc());
process.stdout.write('docs/access.md written from the access model.\n');
