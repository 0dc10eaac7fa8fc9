#!/usr/bin/env node
// Builds the browser console (apps/console) into dist/console: the app bundled by esbuild
// (Preact, TypeScript), its stylesheet, Swagger UI's files for the API reference, and the two
// pages that load them, every asset named by its content's hash (served as immutable). The
// gateway serves what dist/console/manifest.json lists, and nothing else.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');
const src = path.join(root, 'apps', 'console', 'src');
const out = path.join(root, 'dist', 'console');
const assets = path.join(out, 'assets');

function hashed(name, content) {
  const hash = crypto.createHash('sha256').update(content).digest('hex').slice(0, 12);
  const ext = path.extname(name);
  return `${path.basename(name, ext)}-${hash}${ext}`;
}

async function main() {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(assets, { recursive: true });
  const result = await esbuild.build({
    entryPoints: {
      app: path.join(src, 'main.tsx'), 'api-docs': path.join(src, 'api-docs.ts'), styles: path.join(src, 'styles.css'), 'api-docs-overrides': path.join(src, 'api-docs-overrides.css'),
    },
    bundle: true,
    minify: true,
    sourcemap: 'linked',
    format: 'esm',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: path.join(root, 'apps', 'console', 'tsconfig.json'),
    entryNames: '[name]-[hash]',
    outdir: assets,
    metafile: true,
    logLevel: 'warning',
  });
  const built = {};
  for (const [file, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.entryPoint) built[path.basename(meta.entryPoint).replace(/\.(tsx?|css)$/, '')] = path.basename(file);
  }
  // Swagger UI as its package ships it (a classic script, and its stylesheet).
  const swagger = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const copies = {};
  for (const [key, name] of [['swaggerJs', 'swagger-ui-bundle.js'], ['swaggerCss', 'swagger-ui.css']]) {
    const content = fs.readFileSync(path.join(swagger, name));
    copies[key] = hashed(name, content);
    fs.writeFileSync(path.join(assets, copies[key]), content);
  }
  const fill = (template, values) => template.replace(/\{\{(\w+)\}\}/g, (_, k) => {
    if (!values[k]) throw new Error(`no asset for {{${k}}}`);
    return values[k];
  });
  fs.writeFileSync(path.join(out, 'index.html'), fill(fs.readFileSync(path.join(src, 'index.html'), 'utf8'), { app: built.main, styles: built.styles }));
  fs.writeFileSync(path.join(out, 'api-docs.html'), fill(fs.readFileSync(path.join(src, 'api-docs.html'), 'utf8'),
    { apiDocs: built['api-docs'], apiDocsCss: built['api-docs-overrides'], ...copies }));
  const files = fs.readdirSync(assets).sort().map((name) => `assets/${name}`);
  fs.writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify({ pages: { index: 'index.html', apiDocs: 'api-docs.html' }, assets: files }, null, 2)}\n`);
}

main().catch((err) => {
  process.stderr.write(`console build failed: ${err.message}\n`);
  process.exit(1);
});
