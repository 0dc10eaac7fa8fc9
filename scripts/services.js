// Where each built service's entry point is; shared by the launcher and the end-to-end tests.
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const entry = (app) => path.join(root, 'dist', 'apps', app, 'apps', app, 'src', 'main.js');

module.exports = {
  root,
  SERVICES: [
    { name: 'rooms', entry: entry('rooms') },
    { name: 'gateway', entry: entry('gateway') },
    { name: 'webhook-dispatcher', entry: entry('webhook-dispatcher') },
  ],
};
