// Where each built service's entry point is, and how Node runs it; shared by the launcher,
// the benchmark and the end-to-end tests.
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const entry = (app) => path.join(root, 'dist', 'apps', app, 'apps', app, 'src', 'main.js');

// A young generation of 8 MB semi-spaces instead of up to 16: under load V8 grows it to
// the maximum and keeps it, which alone put a service over 200 MB resident; scavenges stay
// cheap because few request objects outlive one.
const NODE_FLAGS = ['--max-semi-space-size=8'];

module.exports = {
  root,
  NODE_FLAGS,
  SERVICES: [
    { name: 'rooms', entry: entry('rooms') },
    { name: 'gateway', entry: entry('gateway') },
    { name: 'webhook-dispatcher', entry: entry('webhook-dispatcher') },
  ],
};
