import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgetTestState, isAlive, processesOf, sweepAbandonedTestState, TestState, trackTestState } from './test-state';

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

const db = (name: string) => `postgres://postgres@127.0.0.1:5432/${name}`;

describe('the ledger of test state', () => {
  let dir: string;
  const saved = process.env.TEST_STATE_DIR;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-'));
    process.env.TEST_STATE_DIR = dir;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TEST_STATE_DIR;
    else process.env.TEST_STATE_DIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  /** A record as a process `owner` left it. */
  const leave = (owner: number, state: TestState) =>
    writeFileSync(join(dir, `${owner}-${state.namespace}.json`), JSON.stringify({ ...state, owner, createdAt: new Date().toISOString() }));

  it('keeps a record while its owner removes the state itself', async () => {
    const state = { namespace: 't_own', databaseUrl: db('chat_test_own') };
    trackTestState(state);
    expect(readdirSync(dir)).toEqual([`${process.pid}-t_own.json`]);
    await forgetTestState(state);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("removes the state of a dead owner, and leaves a live owner's", async () => {
    const dead = await deadPid();
    expect(isAlive(dead)).toBe(false);
    leave(dead, { namespace: 't_dead', databaseUrl: db('chat_test_dead'), retryScheduleMs: [200, 400], moreRetrySchedulesMs: [[1_000]] });
    leave(process.pid, { namespace: 't_live', databaseUrl: db('chat_test_live') });
    const removedStates: TestState[] = [];

    const removed = await sweepAbandonedTestState(async (s) => { removedStates.push(s); });

    expect(removedStates).toEqual([{ namespace: 't_dead', databaseUrl: db('chat_test_dead'), retryScheduleMs: [200, 400], moreRetrySchedulesMs: [[1_000]] }]);
    expect(removed).toEqual(removedStates);
    expect(readdirSync(dir)).toEqual([`${process.pid}-t_live.json`]);
  });

  it('stops the processes still running in the namespace of a dead owner before removing its state', async () => {
    const namespace = `t_orphan_${process.pid}`;
    const orphan = spawn(process.execPath, ['-e', 'setInterval(() => undefined, 1000)'], { env: { ...process.env, BROKER_NAMESPACE: namespace } });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => orphan.once('exit', (_code, signal) => resolve(signal)));
    try {
      await new Promise((resolve) => orphan.once('spawn', resolve));
      expect(processesOf(namespace)).toEqual([orphan.pid]);
      leave(await deadPid(), { namespace, databaseUrl: db('chat_test_orphan') });
      let runningAtRemoval: number[] | undefined;

      await sweepAbandonedTestState(async () => { runningAtRemoval = processesOf(namespace); });

      expect(await exited).toBe('SIGKILL');
      expect(runningAtRemoval).toEqual([]);
    } finally {
      orphan.kill('SIGKILL');
    }
  });

  it('removes a state once when two runs sweep at the same time', async () => {
    leave(await deadPid(), { namespace: 't_race', databaseUrl: db('chat_test_race') });
    let removals = 0;
    const remove = async () => {
      removals++;
      await new Promise((r) => setTimeout(r, 20));
    };

    await Promise.all([sweepAbandonedTestState(remove), sweepAbandonedTestState(remove)]);

    expect(removals).toBe(1);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('takes back a record whose sweeper died before it finished, and leaves a live sweeper\'s', async () => {
    const owner = await deadPid();
    leave(owner, { namespace: 't_claimed', databaseUrl: db('chat_test_claimed') });
    renameSync(join(dir, `${owner}-t_claimed.json`), join(dir, `${owner}-t_claimed.json.sweeping-${await deadPid()}`));
    leave(owner, { namespace: 't_busy', databaseUrl: db('chat_test_busy') });
    renameSync(join(dir, `${owner}-t_busy.json`), join(dir, `${owner}-t_busy.json.sweeping-${process.pid}`));
    const removedStates: TestState[] = [];

    await sweepAbandonedTestState(async (s) => { removedStates.push(s); });

    expect(removedStates.map((s) => s.namespace)).toEqual(['t_claimed']);
    expect(readdirSync(dir)).toEqual([`${owner}-t_busy.json.sweeping-${process.pid}`]);
  });

  it('finds nothing to sweep before any run has recorded state', async () => {
    rmSync(dir, { recursive: true, force: true });
    await expect(sweepAbandonedTestState(async () => undefined)).resolves.toEqual([]);
  });
});
