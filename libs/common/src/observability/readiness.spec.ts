import { CONNECTION, MIGRATIONS, probeWithin, Readiness, readinessReport } from './readiness';

describe('readinessReport', () => {
  it('is ready when every check is, naming each in its own words', () => {
    expect(readinessReport([
      { name: 'postgres', ok: true, words: CONNECTION },
      { name: 'migrations', ok: true, words: MIGRATIONS },
    ])).toEqual({ status: 'ready', checks: { postgres: 'up', migrations: 'done' } });
  });

  it('is not ready when one check fails, and says which', () => {
    expect(readinessReport([
      { name: 'postgres', ok: true, words: CONNECTION },
      { name: 'rabbitmq', ok: false, words: CONNECTION },
      { name: 'migrations', ok: false, words: MIGRATIONS },
    ])).toEqual({ status: 'not_ready', checks: { postgres: 'up', rabbitmq: 'down', migrations: 'pending' } });
  });

  it('is not ready with no checks at all', () => {
    expect(readinessReport([]).status).toBe('not_ready');
  });
});

describe('probeWithin', () => {
  it('counts a throw, a rejection and a late answer as failed', async () => {
    expect(await probeWithin(() => true, 50)).toBe(true);
    expect(await probeWithin(() => {
      throw new Error('no');
    }, 50)).toBe(false);
    expect(await probeWithin(() => Promise.reject(new Error('no')), 50)).toBe(false);
    expect(await probeWithin(() => new Promise<boolean>((r) => setTimeout(() => r(true), 500)), 20)).toBe(false);
  });
});

describe('Readiness', () => {
  it('reports a declared check without a probe yet as failing', async () => {
    const readiness = new Readiness({ postgres: CONNECTION, migrations: MIGRATIONS });
    readiness.set('postgres', () => true);
    expect(await readiness.report()).toEqual({ status: 'not_ready', checks: { postgres: 'up', migrations: 'pending' } });
    expect(() => readiness.set('redis', () => true)).toThrow('not declared');
  });

  it('runs the probes once per cache period, however often it is asked', async () => {
    let now = 0;
    let calls = 0;
    let up = true;
    const readiness = new Readiness({ rabbitmq: CONNECTION }, { cacheMs: 1_000, now: () => now });
    readiness.set('rabbitmq', () => {
      calls++;
      return up;
    });
    await Promise.all([readiness.report(), readiness.report(), readiness.report()]);
    expect(calls).toBe(1);
    up = false;
    now = 999;
    expect((await readiness.report()).status).toBe('ready');
    now = 1_000;
    expect(await readiness.report()).toEqual({ status: 'not_ready', checks: { rabbitmq: 'down' } });
    expect(calls).toBe(2);
  });
});
