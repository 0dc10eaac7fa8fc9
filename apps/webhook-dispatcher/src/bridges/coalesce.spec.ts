import { BRIDGE_KINDS } from '@app/contracts';
import { coalesceCount, estimateSize, POST_CAPACITY, WaitingDelivery } from './coalesce';

const waiting = (...sizes: number[]): WaitingDelivery[] => sizes.map((size, i) => ({ deliveryId: `d${i + 1}`, size }));
const CAP = { messages: 3, size: 100 };

describe('coalesceCount', () => {
  it('takes nothing from an empty lane, and one delivery alone', () => {
    expect(coalesceCount([], CAP)).toBe(0);
    expect(coalesceCount(waiting(10), CAP)).toBe(1);
  });

  it('takes the consecutive deliveries one post holds, at most its messages', () => {
    expect(coalesceCount(waiting(10, 10), CAP)).toBe(2);
    expect(coalesceCount(waiting(10, 10, 10, 10, 10), CAP)).toBe(3);
  });

  it('stops before the delivery that would overflow the post, even when a later one would fit', () => {
    // Order first: d3 may not go ahead of d2.
    expect(coalesceCount(waiting(40, 50, 20, 1), CAP)).toBe(2);
    expect(coalesceCount(waiting(40, 61, 1), CAP)).toBe(1);
    expect(coalesceCount(waiting(50, 50, 1), CAP)).toBe(2);
  });

  it('sends a delivery larger than a post alone (its format splits it into consecutive posts)', () => {
    expect(coalesceCount(waiting(10_000, 10), CAP)).toBe(1);
    expect(coalesceCount(waiting(10, 10_000, 10), CAP)).toBe(1);
  });

  it('drains a burst as few posts, in order, none dropped', () => {
    const burst = waiting(...Array.from({ length: 500 }, (_, i) => 20 + (i % 7) * 30));
    const posts: string[][] = [];
    // A format that holds ten messages a post (Discord's embeds).
    for (let rest = burst; rest.length > 0;) {
      const n = coalesceCount(rest, POST_CAPACITY.discord, (count) => count <= 10);
      posts.push(rest.slice(0, n).map((w) => w.deliveryId));
      rest = rest.slice(n);
    }
    expect(posts.flat()).toEqual(burst.map((w) => w.deliveryId));
    expect(posts.every((p) => p.length >= 1 && p.length <= 10)).toBe(true);
    expect(posts.length).toBe(50);
  });

  it('lowers the count to what the format renders as one post', () => {
    // The format starts a new post at d3 (another sender, say): only d1 and d2 go now.
    const asked: number[] = [];
    const fits = (n: number) => {
      asked.push(n);
      return n <= 2;
    };
    expect(coalesceCount(waiting(1, 1, 1, 1, 1, 1, 1, 1, 1, 1), { messages: 10, size: 100 }, fits)).toBe(2);
    expect(asked.length).toBeLessThanOrEqual(5);
    expect(coalesceCount(waiting(1, 1, 1), CAP, () => false)).toBe(1);
    expect(coalesceCount(waiting(1, 1, 1), CAP, () => true)).toBe(3);
  });

  it('asks the format nothing when one delivery goes', () => {
    const fits = jest.fn(() => true);
    expect(coalesceCount(waiting(1), CAP, fits)).toBe(1);
    expect(fits).not.toHaveBeenCalled();
  });

  it('refuses a capacity of nothing', () => {
    expect(() => coalesceCount(waiting(1), { messages: 0, size: 10 })).toThrow(RangeError);
    expect(() => coalesceCount(waiting(1), { messages: 1, size: 0 })).toThrow(RangeError);
  });

  it('has a capacity for every platform, within the platform\'s size limit', () => {
    for (const kind of BRIDGE_KINDS) expect(POST_CAPACITY[kind].messages).toBeGreaterThanOrEqual(1);
    expect(POST_CAPACITY.discord.size).toBeLessThan(6_000);
  });
});

describe('estimateSize', () => {
  const text = (t: string) => ({ t: 'text' as const, text: t });

  it('counts the sender and the text people read', () => {
    expect(estimateSize({ sender: 'Ada', body: [{ t: 'paragraph', children: [text('hello')] }], card: null, file: null })).toBe(3 + 5 + 1);
  });

  it('counts links, code, lists, tables, cards and files, so a heavier message weighs more', () => {
    const plain = estimateSize({ sender: null, body: [{ t: 'paragraph', children: [text('see docs')] }], card: null, file: null });
    const linked = estimateSize({
      sender: null, card: null, file: null,
      body: [{ t: 'paragraph', children: [text('see '), { t: 'link', href: 'https://example.org/docs', children: [text('docs')] }] }],
    });
    expect(linked).toBeGreaterThan(plain + 'https://example.org/docs'.length);
    const rich = estimateSize({
      sender: 'Bot',
      body: [
        { t: 'pre', text: 'npm test' },
        { t: 'list', ordered: false, items: [[{ t: 'paragraph', children: [{ t: 'bold', children: [text('one')] }] }]] },
        { t: 'table', header: true, rows: [[[text('a')], [text('b')]]] },
      ],
      card: { style: 'link', title: 'Build 42', description: null, url: 'https://ci.example/42', thumbnail: null, icon: null, activity: null, attributes: [{ label: 'branch', value: 'main', url: null }] },
      file: { name: 'log.txt', size: 10, url: 'https://files.example/log.txt', imageUrl: null },
    });
    expect(rich).toBeGreaterThan('npm test'.length + 'one'.length + 'Build 42'.length + 'https://files.example/log.txt'.length);
  });
});
