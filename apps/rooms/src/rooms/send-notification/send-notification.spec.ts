import { NOTIFICATION_COLORS } from '@app/contracts';
import { resolveColor } from './color';
import { extractMentionNames } from './mentions';

describe('resolveColor', () => {
  it('keeps a concrete colour and resolves random to one of the five', () => {
    expect(resolveColor('green')).toBe('green');
    expect(resolveColor('random', () => 0)).toBe('yellow');
    expect(resolveColor('random', () => 0.9999)).toBe('gray');
    for (let i = 0; i < 20; i++) expect(NOTIFICATION_COLORS).toContain(resolveColor('random'));
  });
});

describe('extractMentionNames', () => {
  it('finds @names once each, ignoring e-mail addresses and trailing punctuation', () => {
    expect(extractMentionNames('@Ada ping @bob. and @ada, mail x@y.com (@carol-1)')).toEqual(['ada', 'bob', 'carol-1']);
    expect(extractMentionNames('no mentions here')).toEqual([]);
  });
});
