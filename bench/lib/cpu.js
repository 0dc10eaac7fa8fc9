// CPU time per process group, from /proc: where a scenario's time goes. A snapshot reads
// utime + stime of each service (by pid), of every PostgreSQL, RabbitMQ and Redis process
// (by name: the machine's own servers), of the bench itself (autocannon, the receivers),
// and the machine's total busy time from /proc/stat; the difference of two snapshots,
// divided by the requests (or deliveries) of the run, is CPU milliseconds per unit.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');

const TICKS_PER_SECOND = (() => {
  const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const n = Number((out.stdout || '').trim());
  return Number.isInteger(n) && n > 0 ? n : 100;
})();

/** The machine's servers, by the process name /proc/<pid>/stat gives them. */
const SERVERS = { postgres: 'postgres', 'beam.smp': 'rabbitmq', 'redis-server': 'redis' };

/** utime + stime of one process in ms, with its name; null when it is gone. */
function processCpu(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is the state (field 3 of proc(5)); utime and stime are fields 14 and 15.
    return { name, ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/** Busy and total CPU time of the whole machine in ms (all CPUs), from /proc/stat. */
function machineCpu() {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0];
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    const busy = user + nice + system + irq + softirq + steal;
    return { busyMs: (busy * 1000) / TICKS_PER_SECOND, totalMs: ((busy + idle + iowait) * 1000) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/**
 * One snapshot: ms of CPU so far per group. `services` are { name, pid } (the bench's
 * children; none with BENCH_URL). A server process that started after the first snapshot
 * counts from zero, one that ended is missing: a difference is exact for long-lived ones.
 */
function snapshot(services) {
  const groups = {};
  const pids = {};
  const add = (group, ms) => { groups[group] = (groups[group] || 0) + ms; };
  const own = new Set();
  for (const s of services) {
    const p = processCpu(s.pid);
    own.add(String(s.pid));
    pids[s.name] = [...(pids[s.name] || []), s.pid].sort().join(',');
    if (p) add(s.name, p.ms);
  }
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d) && !own.has(d))) {
    const p = processCpu(pid);
    if (p && SERVERS[p.name]) add(SERVERS[p.name], p.ms);
  }
  const self = processCpu(process.pid);
  if (self) add('bench', self.ms);
  return { at: Date.now(), groups, pids, machine: machineCpu() };
}

/**
 * CPU between two snapshots: ms per unit for each group, `other` (busy time of the machine
 * no group accounts for) and the machine's busy share, over `units` requests or deliveries.
 */
function usage(before, after, units) {
  const perUnit = (ms) => (units > 0 ? ms / units : null);
  const groups = {};
  let accounted = 0;
  for (const [name, ms] of Object.entries(after.groups)) {
    // A service restarted in between counts from its new start (its old process is gone).
    const restarted = after.pids[name] !== undefined && after.pids[name] !== before.pids[name];
    const spent = Math.max(0, ms - (restarted ? 0 : before.groups[name] || 0));
    groups[name] = perUnit(spent);
    accounted += spent;
  }
  let machine = null;
  if (before.machine && after.machine) {
    const busy = after.machine.busyMs - before.machine.busyMs;
    const total = after.machine.totalMs - before.machine.totalMs;
    groups.other = perUnit(Math.max(0, busy - accounted));
    machine = { busyPct: total > 0 ? (busy / total) * 100 : null, busyPerUnit: perUnit(busy) };
  }
  return { units, seconds: (after.at - before.at) / 1000, perUnitMs: groups, machine };
}

module.exports = { snapshot, usage };
