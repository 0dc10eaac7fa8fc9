import { sampledOnScrape } from './metrics';

describe('sampledOnScrape', () => {
  it('reads once per cache period and shares a read in flight', async () => {
    let now = 0;
    let reads = 0;
    const sample = sampledOnScrape(async () => ++reads, { cacheMs: 1_000, now: () => now });
    expect(await Promise.all([sample(), sample()])).toEqual([1, 1]);
    now = 500;
    expect(await sample()).toBe(1);
    now = 1_000;
    expect(await sample()).toBe(2);
  });

  it('gives up on a read that fails or takes too long', async () => {
    const failing = sampledOnScrape(() => Promise.reject(new Error('down')));
    expect(await failing()).toBeUndefined();
    const slow = sampledOnScrape(() => new Promise<number>((r) => setTimeout(() => r(1), 200)), { timeoutMs: 10 });
    expect(await slow()).toBeUndefined();
  });
});
