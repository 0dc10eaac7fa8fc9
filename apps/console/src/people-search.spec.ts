import { matches } from './people-search';

describe("People's search", () => {
  const ann = { name: 'Ann Lee', mention_name: 'annlee', email: 'ann@example.com' };

  it.each([['ann'], ['LEE'], ['@annl'], ['annlee'], ['example.com'], ['  Ann Lee '], ['']])('finds Ann by %j', (q) => {
    expect(matches(ann, q)).toBe(true);
  });

  it.each([['bob'], ['@example'], ['ann lee@']])('does not find Ann by %j', (q) => {
    expect(matches(ann, q)).toBe(false);
  });

  it('searches a person whose e-mail address the list did not give by name and mention only', () => {
    expect(matches({ name: 'Bo', mention_name: 'bo' }, 'example')).toBe(false);
  });
});
