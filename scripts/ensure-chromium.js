#!/usr/bin/env node
// The browser tests drive Chromium from the machine's packages (playwright-core downloads
// no browser). Run before the tests (`npm test`'s pretest): when no Chromium is found and
// CHROMIUM_PATH is not set, installs Debian's `chromium` with apt-get (as root, or through
// sudo); elsewhere it says what to install and fails.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');

const KNOWN = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function found() {
  if (process.env.CHROMIUM_PATH) return fs.existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : null;
  return KNOWN.find((p) => fs.existsSync(p)) || null;
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return result.status === 0;
}

if (found()) process.exit(0);
if (process.env.CHROMIUM_PATH) {
  process.stderr.write(`CHROMIUM_PATH is ${process.env.CHROMIUM_PATH}, which does not exist.\n`);
  process.exit(1);
}
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { encoding: 'utf8' }).stdout.trim() !== '';
const root = typeof process.getuid === 'function' && process.getuid() === 0;
const sudo = !root && spawnSync('sh', ['-c', 'command -v sudo'], { encoding: 'utf8' }).stdout.trim() !== '';
if (!hasApt || (!root && !sudo)) {
  process.stderr.write('The browser tests need Chromium: install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH to a Chromium or Chrome binary.\n');
  process.exit(1);
}
process.stderr.write('Chromium is missing (the browser tests need it): installing Debian\'s chromium package with apt-get\n');
const prefix = root ? [] : ['sudo', '-n'];
const apt = (...args) => (prefix.length ? run(prefix[0], [...prefix.slice(1), 'apt-get', ...args]) : run('apt-get', args));
if (!apt('update', '-qq') || !apt('install', '-y', '-qq', 'chromium') || !found()) {
  process.stderr.write('Installing chromium failed: install it by hand (apt-get install chromium) or set CHROMIUM_PATH.\n');
  process.exit(1);
}
process.stderr.write(`Chromium installed: ${found()}\n`);
