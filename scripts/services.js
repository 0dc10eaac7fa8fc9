// Where each built service's entry point is, and how Node runs it; shared by the launcher,
// the benchmark and the end-to-end tests.
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const entry = (app) => path.join(root, 'dist', 'apps', app, 'apps', app, 'src', 'main.js');

// Heap sizes for services that keep little: a service's live heap under load is 25-40 MB,
// but with V8's defaults (sized for the machine's 24 GB) it lets the heap grow to 120 MB
// and more before collecting, which put services over 200 MB resident. With these limits
// V8 collects sooner (measured: about 120 MB resident after the same load) and still has
// five times the live heap in reserve for bursts.
const NODE_FLAGS = ['--max-semi-space-size=8', '--max-old-space-size=192'];

module.exports = {
  root,
  NODE_FLAGS,
  SERVICES: [
    { name: 'rooms', entry: entry('rooms') },
    { name: 'gateway', entry: entry('gateway') },
    { name: 'webhook-dispatcher', entry: entry('webhook-dispatcher') },
  ],
};
