import { cardOf, cardProblems, type Card } from './__golden__/adaptive-cards';
import { caseMessages, LONG_CJK, LONG_LINKS } from './__golden__/cases';
import { escapeMd, teams } from './teams';

const target = { kind: 'teams' as const, matrixRoomId: null };

const textBlocks = (card: Card): string[] => card.body.flatMap((c) => c.items.filter((i) => i.type === 'TextBlock').map((i) => i.text as string));

describe('teams format', () => {
  it('leaves out a card\'s address that is not a web address', () => {
    const [message] = caseMessages('card');
    const [post] = teams([{ ...message, card: { ...message.card!, url: 'javascript:alert(1)', icon: 'mxc://example.org/icon' } }], target);
    expect(JSON.stringify(post.body)).not.toMatch(/javascript:|mxc:/);
    expect(cardProblems(cardOf(post))).toEqual([]);
  });

  it('shows each colour as the container style of the issue\'s mapping', () => {
    const styles = ['yellow', 'green', 'red', 'purple', 'gray'].map((c) => cardOf(teams(caseMessages(`color-${c}`), target)[0]).body[0].style);
    expect(styles).toEqual(['warning', 'good', 'attention', 'accent', 'default']);
  });

  it('puts coalesced messages in one card, a container each, in order', () => {
    const posts = teams(caseMessages('coalesced'), target);
    expect(posts).toHaveLength(1);
    const card = cardOf(posts[0]);
    expect(card.body.map((c) => c.style ?? null)).toEqual(['attention', 'good', null]);
    expect(textBlocks(card)).toEqual(['**Build bot**: Build #43 failed', '**Build bot**: Build #44 passed', '**Ada Lovelace**: Thanks, all green again']);
  });

  it('escapes what Teams\' Markdown would act on, but leaves a bare URL whole', () => {
    expect(escapeMd('a *b* _c_ [d](e) `f` \\ https://x.example/a_b*c')).toBe('a \\*b\\* \\_c\\_ \\[d\\](e) \\`f\\` \\\\ https://x.example/a_b*c');
    expect(escapeMd('Tom & Jerry &amp; &#169;')).toBe('Tom & Jerry \\&amp; \\&#169;');
    expect(escapeMd('- not a list\n1. nor this\n# nor a heading')).toBe('\\- not a list\n1\\. nor this\n\\# nor a heading');
  });

  it('keeps a 10,000-character message whole, and splits one too large for a post into posts at line boundaries', () => {
    const [whole, ...more] = teams(caseMessages('long-links'), target);
    expect(more).toHaveLength(0);
    expect(textBlocks(cardOf(whole)).join('').replace(/\n\n/g, '\n')).toBe(`**Ada Lovelace**: ${escapeMd(LONG_LINKS)}`);

    const cjk = teams(caseMessages('long-cjk'), target);
    expect(cjk.length).toBeGreaterThan(1);
    expect(cjk.flatMap((p) => textBlocks(cardOf(p))).join('')).toBe(`**Ada Lovelace**: ${LONG_CJK}`);
  });
});
