import type { BridgeKind } from '@app/contracts';
import { classifyPlatformAnswer, classifyPlatformFailure, PlatformAnswer, PlatformResponse } from './platform-answers';

const NOW = new Date('2026-11-29T03:00:00Z');
const answer = (status: number, body = '', headers: Record<string, string> = {}): PlatformResponse => ({ status, body, headers });
const j = (v: unknown) => JSON.stringify(v);

type Case = [string, PlatformResponse, PlatformAnswer | PlatformAnswer['outcome']];

/** Each platform's answers as its documentation shows them (see the links in platform-answers.ts). */
const CASES: Record<BridgeKind, Case[]> = {
  slack: [
    ['200 ok', answer(200, 'ok'), { outcome: 'delivered' }],
    ['no_service', answer(404, 'no_service'), { outcome: 'never', reason: 'Slack: no_service' }],
    ['channel_is_archived', answer(410, 'channel_is_archived'), { outcome: 'never', reason: 'Slack: channel_is_archived' }],
    ['action_prohibited', answer(403, 'action_prohibited'), { outcome: 'never', reason: 'Slack: action_prohibited' }],
    ['invalid_token', answer(403, 'invalid_token'), 'never'],
    ['no_active_hooks', answer(404, 'no_active_hooks'), 'never'],
    ['channel_not_found', answer(404, 'channel_not_found'), 'never'],
    ['posting_to_general_channel_denied', answer(403, 'posting_to_general_channel_denied'), 'never'],
    // Our payload: retrying the same bytes gets the same answer, disabling would cut the room off.
    ['invalid_payload', answer(400, 'invalid_payload'), { outcome: 'failed', reason: 'Slack: HTTP 400 invalid_payload' }],
    ['too_many_attachments', answer(400, 'too_many_attachments'), 'failed'],
    ['429 with Retry-After', answer(429, 'rate_limited', { 'retry-after': '3' }), { outcome: 'retry', afterMs: 3000, reason: 'Slack: HTTP 429 rate_limited' }],
    ['429 with Retry-After as an HTTP-date', answer(429, '', { 'retry-after': 'Sun, 29 Nov 2026 03:00:07 GMT' }), { outcome: 'retry', afterMs: 7000, reason: 'Slack: HTTP 429' }],
    ['500 rollup_error', answer(500, 'rollup_error'), { outcome: 'retry', reason: 'Slack: HTTP 500 rollup_error' }],
    ['503 with Retry-After', answer(503, '', { 'Retry-After': '20' }), { outcome: 'retry', afterMs: 20_000, reason: 'Slack: HTTP 503' }],
  ],
  discord: [
    ['204', answer(204), { outcome: 'delivered' }],
    ['200 (wait=true)', answer(200, j({ id: '1', content: 'x' }), { 'x-ratelimit-remaining': '3', 'x-ratelimit-reset-after': '1.2' }), { outcome: 'delivered' }],
    ['204 with the bucket spent: wait its reset', answer(204, '', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '1.352' }), { outcome: 'delivered', nextPostAfterMs: 1352 }],
    ['404 Unknown Webhook', answer(404, j({ code: 10015, message: 'Unknown Webhook' })), { outcome: 'never', reason: 'Discord: HTTP 404 10015 Unknown Webhook' }],
    ['401 Unknown Webhook', answer(401, j({ code: 10015, message: 'Unknown Webhook' })), 'never'],
    ['401 Invalid Webhook Token', answer(401, j({ code: 50027, message: 'Invalid Webhook Token' })), 'never'],
    ['429 retry_after in seconds (a float)', answer(429, j({ message: 'You are being rate limited.', retry_after: 0.352, global: false })), { outcome: 'retry', afterMs: 352, reason: 'Discord: HTTP 429' }],
    ['429: the longest of body, reset and Retry-After', answer(429, j({ message: 'You are being rate limited.', retry_after: 1.5, global: true }), { 'x-ratelimit-reset-after': '2.25', 'retry-after': '2' }), { outcome: 'retry', afterMs: 2250, reason: 'Discord: HTTP 429 (global)' }],
    ['429 from the edge (no JSON)', answer(429, '<html>banned</html>', { 'retry-after': '60' }), { outcome: 'retry', afterMs: 60_000, reason: 'Discord: HTTP 429' }],
    ['400 Invalid Form Body', answer(400, j({ code: 50035, message: 'Invalid Form Body' })), { outcome: 'failed', reason: 'Discord: HTTP 400 50035 Invalid Form Body' }],
    ['502', answer(502, 'Bad Gateway'), 'retry'],
  ],
  teams: [
    ['connector: 200 1', answer(200, '1'), { outcome: 'delivered' }],
    ['Workflows: 202', answer(202), { outcome: 'delivered' }],
    ['connector: 200 wrapping a 429', answer(200, 'Microsoft Teams endpoint returned HTTP error 429 with ContextId tcid=0.', { 'retry-after': '5' }), { outcome: 'retry', afterMs: 5000, reason: 'Microsoft Teams: Microsoft Teams endpoint returned HTTP error 429 with ContextId tcid=0.' }],
    ['connector: 200 wrapping a 413', answer(200, 'Webhook message delivery failed with error: Microsoft Teams endpoint returned HTTP error 413 with ContextId x'), 'failed'],
    ['connector: 200 wrapping a 403', answer(200, 'Webhook message delivery failed with error: Microsoft Teams endpoint returned HTTP error 403 with ContextId x'), 'never'],
    ['429', answer(429, '', { 'retry-after': '1' }), { outcome: 'retry', afterMs: 1000, reason: 'Microsoft Teams: HTTP 429' }],
    ['400 bad payload: ours', answer(400, 'Bad payload received by generic incoming webhook.'), { outcome: 'failed', reason: 'Microsoft Teams: HTTP 400 Bad payload received by generic incoming webhook.' }],
    ['404: the connector is gone', answer(404), { outcome: 'never', reason: 'Microsoft Teams: HTTP 404' }],
    ['410: connectors retired', answer(410, 'Connector retired'), 'never'],
    ['401 Workflows flow turned off', answer(401, j({ error: { code: 'DirectApiAuthorizationRequired' } })), 'never'],
    ['500', answer(500), 'retry'],
  ],
  mattermost: [
    ['200 ok', answer(200, 'ok'), { outcome: 'delivered' }],
    ['400 Invalid webhook', answer(400, j({ id: 'web.incoming_webhook.invalid.app_error', message: 'Invalid webhook.', status_code: 400 })), { outcome: 'never', reason: 'Mattermost: HTTP 400 web.incoming_webhook.invalid.app_error Invalid webhook.' }],
    ['403', answer(403, j({ id: 'web.incoming_webhook.permissions.app_error', message: 'Inappropriate channel permissions.' })), 'never'],
    ['404 Invalid webhook', answer(404, 'Invalid webhook'), 'never'],
    ['501 incoming webhooks switched off', answer(501, j({ id: 'web.incoming_webhook.disabled.app_error', message: 'Incoming webhooks have been disabled by the system admin.' })), 'never'],
    ['400 no text: ours', answer(400, j({ id: 'web.incoming_webhook.text.app_error', message: 'No text specified.' })), 'failed'],
    ['429', answer(429, 'limit exceeded', { 'retry-after': '1', 'x-ratelimit-remaining': '0' }), { outcome: 'retry', afterMs: 1000, reason: 'Mattermost: HTTP 429 limit exceeded' }],
    ['500', answer(500), 'retry'],
  ],
  rocketchat: [
    ['200 success', answer(200, j({ success: true })), { outcome: 'delivered' }],
    ['404 success false', answer(404, j({ success: false, error: 'Invalid integration id or token provided.' })), { outcome: 'never', reason: 'Rocket.Chat: HTTP 404 Invalid integration id or token provided.' }],
    ['400 success false: wrong token', answer(400, j({ success: false, error: 'Invalid integration id or token provided.' })), 'never'],
    ['400 success false: integration disabled', answer(400, j({ success: false, error: 'Integration is disabled' })), 'never'],
    ['400 success false: the message is ours', answer(400, j({ success: false, error: 'error-message-size-exceeded' })), 'failed'],
    ['200 success false', answer(200, j({ success: false, error: 'x' })), 'failed'],
    ['429', answer(429, j({ success: false, error: 'Error, too many requests.' }), { 'x-ratelimit-reset': '1764385260000', 'retry-after': '4' }), { outcome: 'retry', afterMs: 4000, reason: 'Rocket.Chat: HTTP 429 Error, too many requests.' }],
    ['503', answer(503), 'retry'],
  ],
  googlechat: [
    ['200 the message', answer(200, j({ name: 'spaces/AAA/messages/1', text: 'x' })), { outcome: 'delivered' }],
    ['404 space or webhook gone', answer(404, j({ error: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' } })), { outcome: 'never', reason: 'Google Chat: HTTP 404 NOT_FOUND Requested entity was not found.' }],
    ['403', answer(403, j({ error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' } })), 'never'],
    ['400 key invalid', answer(400, j({ error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] } })), 'never'],
    ['400 the message is ours', answer(400, j({ error: { code: 400, message: 'Invalid JSON payload received.', status: 'INVALID_ARGUMENT' } })), 'failed'],
    ['429 with Retry-After', answer(429, j({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } }), { 'retry-after': '2' }), { outcome: 'retry', afterMs: 2000, reason: 'Google Chat: HTTP 429 RESOURCE_EXHAUSTED' }],
    ['429 without', answer(429, j({ error: { code: 429, status: 'RESOURCE_EXHAUSTED' } })), { outcome: 'retry', reason: 'Google Chat: HTTP 429 RESOURCE_EXHAUSTED' }],
  ],
  matrix: [
    ['200 event_id', answer(200, j({ event_id: '$abc' })), { outcome: 'delivered' }],
    ['403 M_FORBIDDEN', answer(403, j({ errcode: 'M_FORBIDDEN', error: 'User @bot:example.org not in room !abc:example.org' })), { outcome: 'never', reason: 'Matrix: HTTP 403 M_FORBIDDEN User @bot:example.org not in room !abc:example.org' }],
    ['401 M_UNKNOWN_TOKEN', answer(401, j({ errcode: 'M_UNKNOWN_TOKEN', error: 'Invalid access token passed.', soft_logout: true })), 'never'],
    ['401 M_MISSING_TOKEN', answer(401, j({ errcode: 'M_MISSING_TOKEN', error: 'Missing access token' })), 'never'],
    ['429 retry_after_ms', answer(429, j({ errcode: 'M_LIMIT_EXCEEDED', error: 'Too Many Requests', retry_after_ms: 2000 })), { outcome: 'retry', afterMs: 2000, reason: 'Matrix: HTTP 429 M_LIMIT_EXCEEDED Too Many Requests' }],
    ['429 Retry-After (v1.10+)', answer(429, j({ errcode: 'M_LIMIT_EXCEEDED', error: 'Too Many Requests' }), { 'retry-after': '3' }), { outcome: 'retry', afterMs: 3000, reason: 'Matrix: HTTP 429 M_LIMIT_EXCEEDED Too Many Requests' }],
    ['429 both: the longer', answer(429, j({ errcode: 'M_LIMIT_EXCEEDED', retry_after_ms: 4500 }), { 'retry-after': '3' }), { outcome: 'retry', afterMs: 4500, reason: 'Matrix: HTTP 429 M_LIMIT_EXCEEDED' }],
    ['413 M_TOO_LARGE: ours', answer(413, j({ errcode: 'M_TOO_LARGE', error: 'event too large' })), 'failed'],
    ['400 M_BAD_JSON: ours', answer(400, j({ errcode: 'M_BAD_JSON' })), 'failed'],
    ['502 from a proxy', answer(502, '<html>Bad Gateway</html>'), 'retry'],
  ],
};

describe('classifyPlatformAnswer', () => {
  for (const [kind, cases] of Object.entries(CASES) as Array<[BridgeKind, Case[]]>) {
    describe(kind, () => {
      it.each(cases)('%s', (_name, res, expected) => {
        const got = classifyPlatformAnswer(kind, res, NOW);
        if (typeof expected === 'string') expect(got.outcome).toBe(expected);
        else expect(got).toEqual(expected);
      });
    });
  }

  it.each(Object.keys(CASES) as BridgeKind[])('%s: 5xx and 429 are retried, Retry-After honoured, whatever the body', (kind) => {
    for (const status of [429, 500, 502, 503, 504]) {
      expect(classifyPlatformAnswer(kind, answer(status, 'oops', { 'retry-after': '7' }), NOW)).toMatchObject({ outcome: 'retry', afterMs: 7000 });
      expect(classifyPlatformAnswer(kind, answer(status, ''), NOW).outcome).toBe('retry');
    }
  });

  it('reads headers whatever their case', () => {
    expect(classifyPlatformAnswer('slack', answer(429, '', { 'Retry-After': '2' }), NOW)).toMatchObject({ afterMs: 2000 });
    expect(classifyPlatformAnswer('discord', answer(204, '', { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset-After': '1' }), NOW)).toEqual({ outcome: 'delivered', nextPostAfterMs: 1000 });
  });

  it('quotes a platform\'s words on one line and bounded', () => {
    const got = classifyPlatformAnswer('matrix', answer(403, j({ errcode: 'M_FORBIDDEN', error: `a\nb ${'x'.repeat(500)}` })), NOW);
    expect(got.outcome).toBe('never');
    const reason = (got as { reason: string }).reason;
    expect(reason).toMatch(/^Matrix: HTTP 403 M_FORBIDDEN a b x+…$/);
    expect(reason.length).toBeLessThan(260);
  });
});

describe('classifyPlatformFailure', () => {
  it('retries a timeout or a dropped connection, and fails a post the guard refuses', () => {
    expect(classifyPlatformFailure('timeout')).toEqual({ outcome: 'retry', reason: 'timeout' });
    expect(classifyPlatformFailure('connection')).toEqual({ outcome: 'retry', reason: 'connection' });
    expect(classifyPlatformFailure('refused')).toEqual({ outcome: 'failed', reason: 'refused' });
    expect(classifyPlatformFailure('invalid_url')).toEqual({ outcome: 'failed', reason: 'invalid_url' });
  });
});
