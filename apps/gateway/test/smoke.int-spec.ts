import { EventCapture, Stack, startStack, v1 } from '../../../test/support/harness';

describe('gateway smoke (real rooms service, Postgres, RabbitMQ)', () => {
  let stack: Stack;
  let capture: EventCapture;

  beforeAll(async () => {
    stack = await startStack({ gateway: true, rooms: true });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
  });
  afterAll(async () => {
    await capture?.stop();
    await stack?.stop();
  });

  it('lists rooms with an admin token', async () => {
    const token = await stack.createToken('admin');
    const res = await v1(stack.baseUrl, 'GET', 'rooms/list', { auth_token: token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ rooms: [] });
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
  });
});
