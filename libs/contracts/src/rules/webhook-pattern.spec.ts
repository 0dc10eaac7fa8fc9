import { compileWebhookPattern, webhookPatternProblem } from './webhook-pattern';

describe('webhook patterns (RE2 semantics)', () => {
  it('searches the message text', () => {
    const p = compileWebhookPattern('^/deploy\\s+(\\w+)');
    expect(p.test('/deploy prod')).toBe(true);
    expect(p.test('please /deploy prod')).toBe(false);
    expect(compileWebhookPattern('(?i)hello').test('say HELLO there')).toBe(true);
  });

  it('refuses what RE2 does not have, saying why', () => {
    expect(webhookPatternProblem('(a)\\1')).toMatch(/^must be a regular expression the safe \(RE2\) engine accepts: /);
    expect(webhookPatternProblem('(?=a)b')).toMatch(/RE2/);
    expect(webhookPatternProblem('[')).toMatch(/RE2/);
    expect(webhookPatternProblem('a'.repeat(1001))).toBe('must be at most 1000 characters');
    expect(webhookPatternProblem('^(\\w+\\s?)*$')).toBeNull();
  });

  it('matches a pattern that would make a backtracking engine hang, in linear time', () => {
    const p = compileWebhookPattern('^(a+)+$');
    const started = Date.now();
    expect(p.test(`${'a'.repeat(50_000)}!`)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
