import { Stack, startStack, v1 } from '../../../test/support/harness';

describe('gateway when the rooms service does not answer', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ gateway: { COMMAND_TIMEOUT_MS: '400' }, rooms: false });
  });
  afterAll(async () => stack?.stop());

  it('answers 503 with the v1 error body, in the asked format, after the command timeout', async () => {
    const started = Date.now();
    const res = await v1(stack.baseUrl, 'POST', 'rooms/message', {
      auth_token: 'a'.repeat(40), room_id: '1', from: 'CI', message: 'hi', format: 'xml',
    });
    const elapsed = Date.now() - started;
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/^text\/xml/);
    expect(res.text).toBe('<?xml version="1.0" encoding="UTF-8"?><error><code>503</code><type>Service Unavailable</type>' +
      '<message>The rooms service did not answer in time; try again shortly.</message></error>');
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
    expect(elapsed).toBeGreaterThanOrEqual(350);
    expect(elapsed).toBeLessThan(5000);
  });
});
