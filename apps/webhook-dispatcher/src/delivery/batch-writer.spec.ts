import { BatchWriter } from './batch-writer';

describe('BatchWriter', () => {
  it('writes a lone item at once, and what arrives meanwhile together in the next write', async () => {
    const writes: number[][] = [];
    let release!: () => void;
    const writer = new BatchWriter<number>(async (items) => {
      writes.push(items);
      if (writes.length === 1) await new Promise<void>((r) => (release = r));
    }, 3);
    const first = writer.add(1);
    const rest = [2, 3, 4, 5, 6].map((n) => writer.add(n));
    expect(writes).toEqual([[1]]);
    release();
    await Promise.all([first, ...rest]);
    expect(writes).toEqual([[1], [2, 3, 4], [5, 6]]);
    await writer.flushed();
  });

  it('rejects the items of a failed write, and keeps writing the next ones', async () => {
    let fail = true;
    const written: number[] = [];
    const writer = new BatchWriter<number>(async (items) => {
      if (fail) {
        fail = false;
        throw new Error('database unavailable');
      }
      written.push(...items);
    });
    await expect(writer.add(1)).rejects.toThrow('database unavailable');
    await writer.add(2);
    expect(written).toEqual([2]);
  });

  it('hands each item the result of the write that carried it', async () => {
    const writer = new BatchWriter<number, number>(async (items) => items.reduce((a, b) => a + b, 0));
    const results = await Promise.all([writer.add(1), writer.add(2), writer.add(3)]);
    expect(results).toEqual([1, 5, 5]);
  });

  it('tells when everything handed in is written', async () => {
    const written: number[] = [];
    const writer = new BatchWriter<number>(async (items) => {
      await new Promise((r) => setTimeout(r, 5));
      written.push(...items);
    });
    void writer.add(1);
    void writer.add(2);
    await writer.flushed();
    expect(written).toEqual([1, 2]);
  });

  it('with a linger, gathers what arrives within it into one write', async () => {
    const writes: number[][] = [];
    const writer = new BatchWriter<number>(async (items) => {
      writes.push(items);
    }, 200, 30);
    const first = writer.add(1);
    await new Promise((r) => setTimeout(r, 10));
    const second = writer.add(2);
    expect(writes).toEqual([]);
    await Promise.all([first, second]);
    expect(writes).toEqual([[1, 2]]);
    await writer.flushed();
  });

  it('writes an urgent item without waiting out the linger, with what lingered before it', async () => {
    const writes: string[][] = [];
    const writer = new BatchWriter<string>(async (items) => {
      writes.push(items);
    }, 200, 10_000, 1, (item) => item.startsWith('2xx'));
    const lingering = writer.add('500 a');
    await new Promise((r) => setTimeout(r, 5));
    expect(writes).toEqual([]);
    // The only writer is lingering: the urgent item ends its wait.
    await Promise.all([lingering, writer.add('2xx b')]);
    expect(writes).toEqual([['500 a', '2xx b']]);
    // A free writer takes an urgent item at once.
    await writer.add('2xx c');
    expect(writes).toEqual([['500 a', '2xx b'], ['2xx c']]);
    await writer.flushed();
  });

  it('runs up to `concurrency` writes at once, each with the batch waiting when it starts', async () => {
    const started: number[][] = [];
    const releases: Array<() => void> = [];
    const writer = new BatchWriter<number>(async (items) => {
      started.push(items);
      await new Promise<void>((r) => releases.push(r));
    }, 10, 0, 2);
    const all = [writer.add(1), writer.add(2)];
    expect(started).toEqual([[1], [2]]);
    all.push(writer.add(3), writer.add(4));
    expect(started).toHaveLength(2);
    releases[0]();
    await all[0];
    expect(started).toEqual([[1], [2], [3, 4]]);
    releases[1]();
    releases[2]();
    await Promise.all(all);
    await writer.flushed();
    all.push(writer.add(5));
    expect(started).toEqual([[1], [2], [3, 4], [5]]);
    releases[3]();
    await writer.flushed();
  });
});
