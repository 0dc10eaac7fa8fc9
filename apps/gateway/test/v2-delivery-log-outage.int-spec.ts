import { Stack, startStack } from '../../../test/support/harness';
import { v2, v2Session, V2Session } from './v2-helpers';

/**
 * The delivery log with no webhook dispatcher running: the gateway and the rooms service
 * answer, the dispatchers' queue does not. The outage is told as the rooms service's is.
 */
describe('v2 delivery log when no webhook dispatcher answers', () => {
  let stack: Stack;
  let s: V2Session;
  let path: string;
  const DELIVERY = '6f1c2a4e-3b5d-5e7f-8a9b-0c1d2e3f4a5b';

  beforeAll(async () => {
    stack = await startStack({
      gateway: { COMMAND_TIMEOUT_MS: '400' }, rooms: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, dispatcher: false,
    });
    s = await v2Session(stack);
    const room = await v2(stack.baseUrl, 'POST', 'room', { token: s.token, body: { name: 'No Dispatcher' } });
    const hook = await v2(stack.baseUrl, 'POST', `room/${room.json.id}/webhook`, {
      token: s.token, body: { url: 'http://127.0.0.1:9/hook', event: 'room_message' },
    });
    path = `room/${room.json.id}/webhook/${hook.json.id}`;
  });
  afterAll(async () => stack?.stop());

  const call = (verb: string, to: string, body?: unknown) => v2(stack.baseUrl, verb, to, { token: s.token, body });
  const error = (res: { status: number; json: any }) => ({ status: res.status, message: res.json.error.message });

  it('a read unanswered: 503, nothing to undo', async () => {
    expect(error(await call('GET', `${path}/delivery`))).toEqual({ status: 503, message: 'The webhook dispatcher did not answer in time; try again shortly.' });
    expect(error(await call('GET', `${path}/delivery/${DELIVERY}`))).toEqual({ status: 503, message: 'The webhook dispatcher did not answer in time; try again shortly.' });
  });

  it('a change unanswered: 504, it may or may not have been applied', async () => {
    const outcome = 'The webhook dispatcher did not answer in time; the request may or may not have been applied. Check before trying again.';
    expect(error(await call('POST', `${path}/delivery/${DELIVERY}/redeliver`))).toEqual({ status: 504, message: outcome });
    expect(error(await call('POST', `${path}/recover`, { since: '2026-01-01T00:00:00Z' }))).toEqual({ status: 504, message: outcome });
  });

  // A read by webhook id is asked of the dispatcher while the rooms service checks access (the
  // slower of the two, not their sum); a refusal is answered as soon as it is known.
  it('answers at once, without the dispatcher\'s answer, when the webhook is not the caller\'s to see, or the input is wrong', async () => {
    const started = Date.now();
    expect(error(await call('GET', 'room/1/webhook/999/delivery'))).toEqual({ status: 404, message: 'Webhook 999 not found' });
    expect(error(await call('GET', `${path}/delivery?status=lost`))).toEqual({ status: 400, message: 'status: must be one of pending, retrying, delivered, failed, cancelled' });
    expect(error(await call('POST', `${path}/recover`, {}))).toEqual({ status: 400, message: 'since: is required' });
    // None of them waited for the dispatcher's answer.
    expect(Date.now() - started).toBeLessThan(400);
  });

  it('refuses a since PostgreSQL could not read (year 0, an offset beyond ±15:59) with a 400 naming since, not a 500', async () => {
    expect(error(await call('GET', `${path}/delivery?since=0000-01-01T00:00:00Z`)))
      .toEqual({ status: 400, message: 'since: must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z (got "0000-01-01T00:00:00Z")' });
    for (const since of ['2025-01-01T00:00:00+16:00', '2025-01-01T00:00:00+20:00', '2025-01-01T00:00:00-23:59']) {
      expect(error(await call('GET', `${path}/delivery?since=${encodeURIComponent(since)}`)))
        .toEqual({ status: 400, message: `since: must have a UTC offset from -15:59 to +15:59 (got "${since}")` });
    }
    expect(error(await call('POST', `${path}/recover`, { since: '2025-01-01T00:00:00+18:00' })))
      .toEqual({ status: 400, message: 'since: must have a UTC offset from -15:59 to +15:59 (got "2025-01-01T00:00:00+18:00")' });
  });
});
