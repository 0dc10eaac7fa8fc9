import { CreateRoomV1, GetRoomV1, SendNotificationV1 } from '@app/contracts';
import { ACTOR, BrokerLink, databaseUrl, dropTestDatabase, eventually, RoomsRpc, RoomsStack, sql, startStack, testInfra, trackTestState, uniqueName } from './support';

/**
 * The rooms service reaches PostgreSQL through a link this test can cut (the server stays
 * up for everyone else). A database outage must answer `unavailable` (the gateway's 503:
 * nothing was done), never `internal`, and the service must serve again once it is back.
 */
describe('rooms service during a PostgreSQL outage (real Postgres, RabbitMQ)', () => {
  let link: BrokerLink;
  let stack: RoomsStack;
  let rpc: RoomsRpc;
  let ownerId: number;
  let direct: string;

  beforeAll(async () => {
    const server = testInfra().pgServerUrl;
    link = await BrokerLink.open(server);
    const name = uniqueName('chat_test');
    direct = databaseUrl(server, name);
    trackTestState({ databaseUrl: direct });
    stack = await startStack({ DATABASE_URL: databaseUrl(link.url(server), name), DATABASE_POOL_SIZE: '4' });
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    ownerId = (await rpc.createUser('Owner')).id;
    await rpc.send(CreateRoomV1, { actor: ACTOR, name: 'Steady', owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false });
  });
  afterAll(async () => {
    await rpc?.close();
    await link?.restore();
    await stack?.stop();
    await link?.cut();
    await dropTestDatabase(direct);
  });

  it('answers unavailable while the database is unreachable, and serves again once it is back', async () => {
    await link.cut();
    const send = { actor: ACTOR, room: { name: 'Steady' }, from: 'CI', message: 'lost?', messageFormat: 'text' as const, notify: false, color: 'yellow' as const };
    expect(await rpc.refused(SendNotificationV1, send)).toMatchObject({ code: 'unavailable', reason: 'dependency_failed' });
    expect(await rpc.refused(GetRoomV1, { room: { name: 'Steady' } })).toMatchObject({ code: 'unavailable' });

    await link.restore();
    const sent = await eventually(() => rpc.send(SendNotificationV1, { ...send, message: 'back' }), 15_000);
    expect(sent.messageId).toMatch(/^[0-9a-f-]{36}$/);
    // Nothing refused during the outage was stored: only the message sent afterwards.
    const rows = await sql(direct, 'SELECT body FROM messages ORDER BY created_at');
    expect(rows.map((r) => r.body)).toEqual(['back']);
  });
});
