#!/usr/bin/env node
// Summarises a V8 .cpuprofile (BENCH_CPU_PROF_DIR): self time by function and by module, so
// a hot-path change can say where a service's CPU goes without opening DevTools.
//   node bench/lib/profile-summary.js <file.cpuprofile> [top=25]
const fs = require('node:fs');

function summarise(profile, top = 25) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) || 0) + (dt[i] || 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0) || 1;
  const fns = new Map();
  const modules = new Map();
  for (const [id, us] of self) {
    const f = byId.get(id).callFrame;
    const where = moduleOf(f.url);
    const name = `${f.functionName || '(anonymous)'} ${where}:${f.lineNumber + 1}`;
    fns.set(name, (fns.get(name) || 0) + us);
    modules.set(where, (modules.get(where) || 0) + us);
  }
  const rows = (m) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top)
    .map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
  return [
    `total sampled: ${(total / 1e6).toFixed(2)} s`, '', 'by module:', ...rows(modules), '', 'by function (self):', ...rows(fns), '',
    ...inclusive(profile, byId, self, top),
  ].join('\n');
}

/**
 * Time in each function and what it called, as a share of the busy time (idle left out),
 * counted once per sample however deep the recursion: what a request path costs as a whole
 * (the token strategy, the rate limiter, a reply's serialisation), which self time spreads
 * over many small functions. Start-up (module loading) is left out of the list.
 */
function inclusive(profile, byId, self, top) {
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const totals = new Map();
  let busy = 0;
  for (const [id, us] of self) {
    if (byId.get(id).callFrame.functionName === '(idle)') continue;
    busy += us;
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur).callFrame;
      const name = `${f.functionName || '(anonymous)'} ${moduleOf(f.url)}:${f.lineNumber + 1}`;
      if (seen.has(name)) continue;
      seen.add(name);
      totals.set(name, (totals.get(name) || 0) + us);
    }
  }
  // The root, and module loading: the modules' top-level code is `(anonymous) <file>:1`.
  const startUp = /^\(root\)|node:internal\/modules|node:internal\/main|^require |^Module\.|^\(anonymous\) \S+:1$/;
  const rows = [...totals].filter(([k]) => !startUp.test(k)).sort((a, b) => b[1] - a[1]).slice(0, top)
    .map(([k, us]) => `${((100 * us) / (busy || 1)).toFixed(1).padStart(5)}%  ${k}`);
  return [`by function (inclusive, share of ${(busy / 1e6).toFixed(2)} s busy):`, ...rows];
}

/** A package name for node_modules, the project path for our own code, or the kind for V8's. */
function moduleOf(url) {
  if (!url) return '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return url;
  const dist = url.indexOf('/dist/');
  return dist >= 0 ? url.slice(dist + 1) : url;
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node bench/lib/profile-summary.js <file.cpuprofile> [top]');
    process.exit(2);
  }
  console.log(summarise(JSON.parse(fs.readFileSync(file, 'utf8')), Number(top) || 25));
}

module.exports = { summarise };
