import { MENTION_ALL_PATTERN, privateMentionPattern } from './chat-rules';

/**
 * The pattern is PostgreSQL's (an ARE); its POSIX classes are read here as JavaScript reads
 * the same rule, so that the boundaries are checked without a database (the integration test
 * runs it in PostgreSQL).
 */
const asJs = (pattern: string) => new RegExp(pattern.replace(/\[:alnum:\]/g, '\\p{L}\\p{N}'), 'iu');

describe('privateMentionPattern', () => {
  const ann = asJs(privateMentionPattern('ann'));

  it('finds the mention at the start, after spaces and punctuation, whatever the case', () => {
    for (const text of ['@ann hi', 'hi @ann', 'hi @ANN!', '(@ann)', 'hi @ann.', 'hi @ann-- ok', '@ann']) expect([text, ann.test(text)]).toEqual([text, true]);
  });

  it('does not take a longer name, an e-mail address or a doubled @ for it', () => {
    for (const text of ['@anna', 'ann@ann.example', 'me@@ann', '@ann_b', '@ann.lee', '@ann-lee', 'ann']) expect([text, ann.test(text)]).toEqual([text, false]);
  });

  it('escapes what a mention name may hold that means something in a pattern', () => {
    const dotted = asJs(privateMentionPattern('a.b'));
    expect(dotted.test('hi @a.b')).toBe(true);
    expect(dotted.test('hi @axb')).toBe(false);
  });
});

describe('MENTION_ALL_PATTERN', () => {
  const all = asJs(MENTION_ALL_PATTERN);

  it('finds @all as a mention of everyone, in text and in a notification\'s html', () => {
    for (const text of ['@all standup now', 'deploy failed, @ALL', '<b>@all</b> look']) expect([text, all.test(text)]).toEqual([text, true]);
  });

  it('does not take @here, @allison, an address or all for it', () => {
    for (const text of ['@here standup', '@allison hi', 'me@all.example', 'all of you']) expect([text, all.test(text)]).toEqual([text, false]);
  });
});
