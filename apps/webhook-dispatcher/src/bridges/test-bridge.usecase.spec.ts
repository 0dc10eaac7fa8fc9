import { TEST_ANSWER_MAX, testReply } from './test-bridge.usecase';

describe('testReply', () => {
  it('shows the platform\'s status and words, its secrets redacted, at most 2,000 characters', () => {
    const reply = testReply({
      result: { kind: 'response', status: 400, headers: {}, body: `invalid_payload for S3cretPathToken ${'x'.repeat(3_000)}`, truncated: false, durationMs: 12.4 },
      platform: { outcome: 'failed', reason: 'Slack: HTTP 400 invalid_payload' }, partsDone: 0, secrets: ['S3cretPathToken'], request: null,
    });
    expect(reply).toMatchObject({ status: 400, outcome: 'failed', durationMs: 12 });
    expect(reply.body.startsWith('invalid_payload for [REDACTED] ')).toBe(true);
    expect(reply.body).toHaveLength(TEST_ANSWER_MAX);
  });

  it('says why no answer came, without the URL\'s token', () => {
    const reply = testReply({
      result: { kind: 'failure', failure: 'refused', message: 'https://hooks.example/services/S3cretPathToken resolves to a private address', durationMs: 1 },
      platform: { outcome: 'failed', reason: 'refused' }, partsDone: 0, secrets: ['S3cretPathToken'], request: null,
    });
    expect(reply).toEqual({ status: null, body: 'refused: https://hooks.example/services/[REDACTED] resolves to a private address', outcome: 'failed', durationMs: 1 });
  });
});
