import { Stack, startStack, v1 } from '../../../test/support/harness';
import { expectError, expectJson } from './gateway-helpers';

/**
 * When the rooms service stops answering, the gateway says what it knows: a query that
 * went unanswered changed nothing (503); a change that went unanswered may or may not have
 * been applied (504), so the client must not simply retry it.
 */
describe('gateway when the rooms service stops answering (real Postgres, RabbitMQ)', () => {
  let stack: Stack;
  let admin: string;
  let roomId: number;

  beforeAll(async () => {
    stack = await startStack({ gateway: { COMMAND_TIMEOUT_MS: '500' }, rooms: true });
    admin = await stack.createToken('admin');
    const user = await v1(stack.baseUrl, 'POST', 'users/create', { auth_token: admin, email: 'o@example.com', name: 'O' });
    roomId = expectJson(await v1(stack.baseUrl, 'POST', 'rooms/create', { auth_token: admin, name: 'Outage Room', owner_user_id: user.json.user.user_id }), 200).room.room_id;
    // The token is cached now: the requests below reach their command.
    await stack.rooms!.close();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers 504 Gateway Timeout to a change that went unanswered, saying it may have been applied', async () => {
    const started = Date.now();
    const res = await v1(stack.baseUrl, 'POST', 'rooms/message', { auth_token: admin, room_id: roomId, from: 'CI', message: 'lost?' });
    expectError(res, 504, 'Gateway Timeout', /may or may not have been applied/);
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });

  it('answers 503 to a query that went unanswered', async () => {
    expectError(await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: admin }), 503, 'Service Unavailable', 'The rooms service did not answer in time; try again shortly.');
  });
});
