// Microsoft's Adaptive Cards library (the renderer Teams' web client is built on) checks
// every card. Its `lib/` is ESM with extensionless imports that Node cannot resolve; the
// published UMD bundle is the same code and loads in Node without a DOM for parsing.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const AC = require('adaptivecards/dist/adaptivecards.js') as typeof import('adaptivecards');
import { CASES, goldenCheck, longText } from './__golden__/rich-cases';
import { jsonBytes } from './split';
import { escapeMd, TEAMS_POST_BUDGET_BYTES, TEAMS_POST_MAX_BYTES, teams } from './teams';
import type { PlatformPost } from './types';

const target = { kind: 'teams' as const, matrixRoomId: null };

type Card = { version: string; body: Array<{ type: string; style?: string; items: Array<Record<string, unknown>> }> };
const cardOf = (post: PlatformPost): Card => {
  const [attachment] = (post.body as { attachments: Array<{ contentType: string; content: Card }> }).attachments;
  expect(attachment.contentType).toBe('application/vnd.microsoft.card.adaptive');
  return attachment.content;
};

/** What the library reports while parsing a card and validating its properties: nothing, for a good card. */
function cardProblems(card: Card): string[] {
  const parsed = new AC.AdaptiveCard();
  const context = new AC.SerializationContext();
  // Parsing for the card's own version: an element or property newer than it is reported.
  const version = AC.Version.parse(card.version, context);
  if (!version) throw new Error(`card version ${card.version} does not parse`);
  context.targetVersion = version;
  parsed.parse(card, context);
  const problems: string[] = [];
  for (let n = 0; n < context.eventCount; n++) problems.push(context.getEventAt(n).message);
  for (const event of parsed.validateProperties().validationEvents) problems.push(event.message);
  return problems;
}

const textBlocks = (card: Card): string[] => card.body.flatMap((c) => c.items.filter((i) => i.type === 'TextBlock').map((i) => i.text as string));

describe('teams format', () => {
  describe.each(goldenCheck('teams', teams))('%s', (_name, posts, golden) => {
    it('matches its golden payload', () => {
      expect(posts).toEqual(golden);
    });

    it('is a message envelope whose card the Adaptive Cards library parses without a warning', () => {
      for (const post of posts) {
        expect(post).toMatchObject({ method: 'POST', path: '', body: { type: 'message' } });
        expect(cardProblems(cardOf(post))).toEqual([]);
      }
    });

    it('keeps each post within Teams\' 28 KB, and clear of it', () => {
      for (const post of posts) expect(jsonBytes(post.body)).toBeLessThanOrEqual(Math.min(TEAMS_POST_BUDGET_BYTES, TEAMS_POST_MAX_BYTES));
    });
  });

  it('the library does report a bad card (the check above can fail)', () => {
    expect(cardProblems({ version: '1.4', body: [{ type: 'Container', style: 'bogus', items: [] }] })).toEqual(['Invalid value "bogus" for property "style".']);
    expect(cardProblems({ version: '1.4', body: [{ type: 'Container', items: [{ type: 'ActionSet', actions: [{ type: 'Action.OpenUrl', title: 'Open' }] }] }] })).toEqual(['Property "url" must be set.']);
    // A Table in a 1.4 card: the version the card declares is the one it is checked against.
    expect(cardProblems({ version: '1.4', body: [{ type: 'Container', items: [{ type: 'Table', columns: [{ width: 1 }], rows: [] }] }] })).toEqual([
      'Unknown element type "Table". Fallback will be used if present.',
    ]);
  });

  it('leaves out a card\'s address that is not a web address', () => {
    const [message] = CASES.card;
    const [post] = teams([{ ...message, card: { ...message.card!, url: 'javascript:alert(1)', icon: 'mxc://example.org/icon' } }], target);
    expect(JSON.stringify(post.body)).not.toMatch(/javascript:|mxc:/);
    expect(cardProblems(cardOf(post))).toEqual([]);
  });

  it('shows each colour as the container style of the issue\'s mapping', () => {
    const styles = ['yellow', 'green', 'red', 'purple', 'gray'].map((c) => cardOf(teams(CASES[`color-${c}`], target)[0]).body[0].style);
    expect(styles).toEqual(['warning', 'good', 'attention', 'accent', 'default']);
  });

  it('puts coalesced messages in one card, a container each, in order', () => {
    const posts = teams(CASES.coalesced, target);
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
    const [whole, ...more] = teams(CASES['long-10000'], target);
    expect(more).toHaveLength(0);
    expect(textBlocks(cardOf(whole)).join('').replace(/\n\n/g, '\n')).toBe(`**Ada Lovelace**: ${escapeMd(longText())}`);

    const cjk = teams(CASES['long-cjk'], target);
    expect(cjk.length).toBeGreaterThan(1);
    const original = (CASES['long-cjk'][0].body[0] as { children: Array<{ text: string }> }).children[0].text;
    expect(cjk.flatMap((p) => textBlocks(cardOf(p))).join('')).toBe(`**Ada Lovelace**: ${original}`);
  });
});
