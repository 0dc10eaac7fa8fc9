// Child processes of the bench: start one, stop one (SIGTERM, then SIGKILL), read its RSS.
const fs = require('node:fs');

const children = new Set();

/** Registers a child to be SIGKILLed if the bench exits (or dies) while it still runs. */
function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));

/** Resolves with { code, signal } once the child has exited (at once if it already has). */
function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** SIGTERM, then SIGKILL if the child is still there after graceMs. */
async function stopProcess(child, graceMs = 10_000) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const done = exited(child);
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await done;
  clearTimeout(timer);
}

/** Resident set size now (VmRSS) and at its peak (VmHWM), in MB, from /proc/<pid>/status. */
function memoryOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field) => Number((status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm')) || [])[1]);
    return { rssMB: kb('VmRSS') / 1024, peakMB: kb('VmHWM') / 1024 };
  } catch {
    return { rssMB: null, peakMB: null };
  }
}

module.exports = { track, exited, stopProcess, memoryOf };
