import { INestMicroservice } from '@nestjs/common';
import { parseConfig } from '@app/common';
import { RoomCreatedV1, RoomsCommandV1, RoomTopicChangedV1, UserCreatedV1 } from '@app/contracts';
import { EventCapture, Stack, startStack, testInfra } from '../../../test/support/harness';
import { startRoomsService } from '../src/bootstrap';
import { roomsConfigShape } from '../src/config';
import { RoomsService } from '../src/rooms/rooms.service';
import { UsersService } from '../src/users/users.service';
import { ACTOR, BrokerLink, eventually, RoomsRpc, sql } from './support';


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The rooms service reaches RabbitMQ through a link this test can cut, so that it loses
 * the broker for real while the test (and its event capture) keeps its own connection.
 * Changes are made in-process during the outage, since commands cannot arrive then.
 */
describe('rooms service during a RabbitMQ outage (real Postgres, RabbitMQ)', () => {
  let link: BrokerLink;
  let stack: Stack;
  let capture: EventCapture;
  let rpc: RoomsRpc;
  let ownerId: number;
  const restarted: INestMicroservice[] = [];

  const outboxCount = async () => (await sql(stack.databaseUrl, 'SELECT count(*)::int AS n FROM outbox'))[0].n as number;

  beforeAll(async () => {
    link = await BrokerLink.open(testInfra().amqpUrl);
    stack = await startStack({ rooms: { AMQP_URL: link.url(testInfra().amqpUrl), OUTBOX_POLL_MS: '200' } });
    capture = await EventCapture.start(stack.amqpUrl, stack.namespace);
    rpc = await RoomsRpc.connect(stack.amqpUrl, stack.namespace);
    ownerId = (await stack.rooms!.get(UsersService).create({ email: 'o@example.com', name: 'Owner' })).user.user_id;
    await capture.waitFor(UserCreatedV1.routingKey);
  });
  afterEach(async () => {
    await link.restore().catch(() => undefined);
  });
  afterAll(async () => {
    for (const app of restarted) await app.close().catch(() => undefined);
    await rpc?.close();
    await capture?.stop();
    await stack?.stop();
    await link?.cut();
  });

  it('keeps events written during the outage in the outbox and publishes them once the broker is back', async () => {
    await link.cut();
    await sleep(300);
    const { room } = await stack.rooms!.get(RoomsService).create({
      actor: ACTOR, name: 'Offline Room', ownerUserId: ownerId, privacy: 'public', topic: '', guestAccess: false,
    });
    await sleep(1000);
    expect(await outboxCount()).toBe(1);
    expect(capture.events.filter((e) => e.routingKey === RoomCreatedV1.routingKey)).toEqual([]);

    // A command sent meanwhile waits in the durable command queue and is answered later.
    const answered = rpc.send(RoomsCommandV1.setTopic, { actor: ACTOR, roomIdOrName: 'Offline Room', topic: 'back', from: 'API' }, 30_000);
    await sleep(300);
    await link.restore();
    await capture.waitFor(RoomCreatedV1.routingKey, (e: any) => e.payload.room.id === room.room_id, 20_000);
    expect(await answered).toEqual({ status: 'ok' });
    await capture.waitFor(RoomTopicChangedV1.routingKey, (e: any) => e.payload.room.id === room.room_id, 20_000);
    const order = capture.events.filter((e) => (e.envelope.payload as any).room?.id === room.room_id).map((e) => e.routingKey);
    expect(order.slice(0, 2)).toEqual([RoomCreatedV1.routingKey, RoomTopicChangedV1.routingKey]);
    await eventually(async () => expect(await outboxCount()).toBe(0));
  });

  it('shuts down promptly during an outage, and a restarted service publishes what was left', async () => {
    await link.cut();
    await sleep(300);
    const { room } = await stack.rooms!.get(RoomsService).create({
      actor: ACTOR, name: 'Left Behind', ownerUserId: ownerId, privacy: 'private', topic: '', guestAccess: false,
    });
    await sleep(500);
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      stack.rooms!.close().then(() => 'closed'),
      new Promise((r) => { timer = setTimeout(() => r('still closing after 15 s'), 15_000); }),
    ]).finally(() => clearTimeout(timer));
    expect(closed).toBe('closed');
    expect(await outboxCount()).toBe(1);

    await link.restore();
    restarted.push(await startRoomsService(parseConfig(roomsConfigShape, {
      AMQP_URL: stack.amqpUrl, BROKER_NAMESPACE: stack.namespace, DATABASE_URL: stack.databaseUrl, LOG_LEVEL: 'silent',
    })));
    const event = await capture.waitFor(RoomCreatedV1.routingKey, (e: any) => e.payload.room.id === room.room_id, 20_000);
    expect((event.payload as any).room).toMatchObject({ name: 'Left Behind', privacy: 'private' });
    await eventually(async () => expect(await outboxCount()).toBe(0));
  });
});
