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
//
// The rooms service gets 16 MB semi-spaces: it turns rows into replies, and with 8 MB a
// fifth of its time under a read load was the young-generation collector (history-recent:
// 0.85 -> 0.60 ms of its CPU per request, 164 MB resident; docs/decisions.md). The gateway
// stays at 8: at 16 it peaked at 199 MB.
const heap = (semiSpaceMB) => [`--max-semi-space-size=${semiSpaceMB}`, '--max-old-space-size=192'];

module.exports = {
  root,
  SERVICES: [
    { name: 'rooms', entry: entry('rooms'), flags: heap(16) },
    { name: 'gateway', entry: entry('gateway'), flags: heap(8) },
    { name: 'webhook-dispatcher', entry: entry('webhook-dispatcher'), flags: heap(8) },
  ],
};
