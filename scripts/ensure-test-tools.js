#!/usr/bin/env node
// What the tests need from the machine's packages, installed before them (`npm test`'s
// pretest) with apt-get (as root, or through sudo) when missing:
//  - Chromium, for the browser tests (playwright-core downloads no browser); CHROMIUM_PATH
//    names another. Without it the run stops here, saying what to install.
//  - rabbitmq-server, for the cluster test, which starts three RabbitMQ nodes of its own from
//    it. Without it that test skips itself saying so, and this script only warns.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const onPath = (name, extra = []) =>
  [...(process.env.PATH || '').split(path.delimiter), ...extra].filter(Boolean).map((d) => path.join(d, name)).find((f) => fs.existsSync(f)) || null;

const TOOLS = [
  {
    name: 'Chromium',
    pkg: 'chromium',
    why: 'the browser tests need it',
    required: true,
    found() {
      if (process.env.CHROMIUM_PATH) return fs.existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : null;
      return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((p) => fs.existsSync(p)) || null;
    },
    refuse() {
      // A CHROMIUM_PATH that does not exist is a mistake to report, not a package to install.
      return process.env.CHROMIUM_PATH ? `CHROMIUM_PATH is ${process.env.CHROMIUM_PATH}, which does not exist.` : null;
    },
    otherwise: 'or set CHROMIUM_PATH to a Chromium or Chrome binary',
  },
  {
    name: 'rabbitmq-server',
    pkg: 'rabbitmq-server',
    why: 'the RabbitMQ cluster test starts its nodes from it',
    required: false,
    found: () => onPath('rabbitmq-server', ['/usr/sbin', '/usr/local/sbin']),
    refuse: () => null,
    otherwise: 'or that test skips itself',
  },
];

function run(command, args) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return result.status === 0;
}

const missing = TOOLS.filter((t) => !t.found());
if (missing.length === 0) process.exit(0);

let failed = false;
const give = (tool, message) => {
  process.stderr.write(`${message}\n`);
  if (tool.required) failed = true;
};

const root = typeof process.getuid === 'function' && process.getuid() === 0;
const canInstall = onPath('apt-get') !== null && (root || onPath('sudo') !== null);
const apt = (...args) => (root ? run('apt-get', args) : run('sudo', ['-n', 'apt-get', ...args]));
let updated = false;
for (const tool of missing) {
  const refusal = tool.refuse();
  if (refusal) {
    give(tool, refusal);
    continue;
  }
  const howTo = `install it (Debian/Ubuntu: apt-get install ${tool.pkg}) ${tool.otherwise}`;
  if (!canInstall) {
    give(tool, `${tool.name} is missing (${tool.why}): ${howTo}.`);
    continue;
  }
  process.stderr.write(`${tool.name} is missing (${tool.why}): installing Debian's ${tool.pkg} package with apt-get\n`);
  updated = updated || apt('update', '-qq');
  if (!updated || !apt('install', '-y', '-qq', tool.pkg) || !tool.found()) {
    give(tool, `Installing ${tool.pkg} failed: ${howTo}.`);
    continue;
  }
  process.stderr.write(`${tool.name} installed: ${tool.found()}\n`);
}
process.exit(failed ? 1 : 0);
