/**
 * A ledger, on this machine, of what test systems leave on the shared servers (a broker
 * namespace, its Redis keys, a database) while they exist. A test process that is killed
 * (jest's timeout, Ctrl-C, `kill -9`) never removes its state: queues, a database and
 * orphaned service processes that slow every later run on the machine. The next run's
 * global setup removes the state of every record whose owner is gone.
 *
 * A record is a file per test system, named by its owner's pid: reading the directory
 * needs no server, and two runs on one machine share it (a run never sweeps a live owner's).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rename, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What removeTestState takes: the namespace is absent for a test that made a database only. */
export interface TestState {
  namespace?: string;
  databaseUrl: string;
  retryScheduleMs?: readonly number[];
  /** Other schedules its dispatchers ran with (the bench's scenarios set their own): their delay queues too. */
  moreRetrySchedulesMs?: ReadonlyArray<readonly number[]>;
}

interface TestStateRecord extends TestState {
  /** The process that removes the state when it is done (the jest worker). */
  owner: number;
  createdAt: string;
}

/**
 * The user's own directory: the temp directory is everyone's, and a record names what the
 * sweep kills and drops. TEST_STATE_DIR: another ledger (the ledger's own tests).
 */
const ledger = () => process.env.TEST_STATE_DIR ?? join(tmpdir(), `chat-room-service-test-state-${process.getuid?.() ?? 'user'}`);

const fileOf = (owner: number, state: TestState) => join(ledger(), `${owner}-${state.namespace ?? new URL(state.databaseUrl).pathname.slice(1)}.json`);

/**
 * Records a test system's state before it is made (a leftover of a run killed while starting
 * is swept too), and answers it: what removeTestState is given when the test is done.
 */
export function trackTestState<S extends TestState>(state: S): S {
  const record: TestStateRecord = { ...state, owner: process.pid, createdAt: new Date().toISOString() };
  // Synchronous: a kill right after creation must find the record already written.
  mkdirSync(ledger(), { recursive: true, mode: 0o700 });
  writeFileSync(fileOf(process.pid, state), JSON.stringify(record));
  return state;
}

/** The state was removed by its owner. */
export async function forgetTestState(state: TestState): Promise<void> {
  await unlink(fileOf(process.pid, state)).catch(() => undefined);
}

/** Whether a process of this machine still runs (EPERM: it does, as another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Processes whose environment names the namespace (`BROKER_NAMESPACE=`): the services a
 * killed test launched, orphaned and still consuming. Linux's /proc; none elsewhere.
 */
export function processesOf(namespace: string): number[] {
  const marker = `\0BROKER_NAMESPACE=${namespace}\0`;
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  return entries.map(Number).filter((pid) => {
    if (pid === process.pid) return false;
    try {
      return `\0${readFileSync(`/proc/${pid}/environ`, 'latin1')}`.includes(marker);
    } catch {
      return false; // gone meanwhile, or another user's
    }
  });
}

/** Kills the processes of a namespace and waits (5 s at most) until none runs: a dead one's environment reads empty. */
async function stopProcessesOf(namespace: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (let running = processesOf(namespace); running.length > 0 && Date.now() < deadline; running = processesOf(namespace)) {
    for (const pid of running) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Removes the state of every record whose owner is gone: first the processes still running
 * in its namespace (killed: their state goes next), then the state itself (`remove`; a
 * record whose removal throws is left for the next run). A record is claimed by renaming
 * it, so two runs starting together never remove the same state twice. Answers what was removed.
 */
export async function sweepAbandonedTestState(remove: (state: TestState) => Promise<void>): Promise<TestState[]> {
  let files: string[];
  try {
    files = await readdir(ledger());
  } catch {
    return [];
  }
  // A record a sweeper claimed and did not finish (it died): back to the others first.
  for (const file of files) {
    const claim = /^(.+\.json)\.sweeping-(\d+)$/.exec(file);
    if (claim && !isAlive(Number(claim[2]))) await rename(join(ledger(), file), join(ledger(), claim[1])).catch(() => undefined);
  }
  files = (await readdir(ledger())).filter((f) => f.endsWith('.json'));
  const removed: TestState[] = [];
  for (const file of files) {
    const owner = Number(file.split('-')[0]);
    if (!Number.isInteger(owner) || isAlive(owner)) continue;
    const path = join(ledger(), file);
    const claimed = `${path}.sweeping-${process.pid}`;
    try {
      await rename(path, claimed);
    } catch {
      continue; // another run took it
    }
    let record: TestStateRecord;
    try {
      record = JSON.parse(await readFile(claimed, 'utf8'));
    } catch {
      await unlink(claimed).catch(() => undefined);
      continue;
    }
    if (record.namespace) await stopProcessesOf(record.namespace);
    const { owner: _owner, createdAt: _createdAt, ...state } = record;
    try {
      await remove(state);
    } catch (err) {
      await rename(claimed, path).catch(() => undefined); // for the next run
      throw err;
    }
    removed.push(state);
    await unlink(claimed).catch(() => undefined);
  }
  return removed;
}
