import { randomUUID } from 'node:crypto';
import { INestApplicationContext } from '@nestjs/common';
import { Channel, ChannelModel, ConfirmChannel, connect, GetMessage } from 'amqplib';
import { AmqpBroker, createLogger, Observability, OBSERVABILITY, parseConfig } from '@app/common';
import {
  brokerNames, BrokerNames, CreateRoomV1, CreateUserV1, RoomCreatedV2, RoomNotificationSentV2, SendNotificationV1, UserCreatedV1,
} from '@app/contracts';
import { TEST_SECRETS_KEYS, eventually, Stack, startStack } from '../../../test/support/harness';
import { startDispatcher } from '../src/bootstrap';
import { dispatcherConfigShape } from '../src/config';



const roomObject = (id: number) => ({
  id,
  is_archived: false,
  links: { self: `http://x/v2/room/${id}`, participants: `http://x/v2/room/${id}/participant`, webhooks: `http://x/v2/room/${id}/webhook` },
  name: `room ${id}`,
  privacy: 'public',
  version: 'ABCDEF01',
});

const envelope = (type: string, payload: unknown = { room: roomObject(1), sender: 'test' }) => ({
  id: randomUUID(), type, version: 2, occurredAt: new Date().toISOString(), payload,
});

describe('webhook dispatcher consuming room events (real RabbitMQ)', () => {
  let stack: Stack;
  let names: BrokerNames;
  let conn: ChannelModel;
  let publisher: ConfirmChannel;
  let reader: Channel;
  const extra: INestApplicationContext[] = [];

  /** One more dispatcher replica on the stack's namespace; closed after the test. */
  const startReplica = async () => {
    const app = await startDispatcher(parseConfig(dispatcherConfigShape, {
      SECRETS_KEYS: TEST_SECRETS_KEYS,
      AMQP_URL: stack.amqpUrl, BROKER_NAMESPACE: stack.namespace, DATABASE_URL: stack.databaseUrl, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', METRICS_PORT: '0',
    }));
    extra.push(app);
    return app;
  };

  const publish = async (routingKey: string, body: unknown) => {
    const content = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
    publisher.publish(names.eventsExchange, routingKey, content, { persistent: true, contentType: 'application/json' });
    await publisher.waitForConfirms();
  };
  const eventsQueue = () => reader.checkQueue(names.dispatcherEventsQueue);
  /** Room events the stack's dispatcher has acknowledged (its consumer's counter, counted as each is acked). */
  const acknowledged = async () => {
    const metric = await stack.dispatcher!.get<Observability>(OBSERVABILITY).registry.getSingleMetric('messaging_client_consumed_messages_total')?.get();
    return (metric?.values ?? [])
      .filter((v) => v.labels.messaging_destination_name === names.dispatcherEventsQueue && v.labels.outcome === 'ack')
      .reduce((n, v) => n + v.value, 0);
  };
  const deadLetterQueue = () => reader.checkQueue(names.dispatcherDeadLetterQueue);

  /** Reads (and acknowledges) everything in the dead-letter queue. */
  const readDeadLetters = async (expected: number): Promise<GetMessage[]> => {
    await eventually(async () => expect((await deadLetterQueue()).messageCount).toBeGreaterThanOrEqual(expected));
    const out: GetMessage[] = [];
    for (;;) {
      const msg = await reader.get(names.dispatcherDeadLetterQueue, { noAck: true });
      if (!msg) return out;
      out.push(msg);
    }
  };

  beforeAll(async () => {
    stack = await startStack({ rooms: true, dispatcher: true });
    names = brokerNames(stack.namespace);
    conn = await connect(stack.amqpUrl);
    publisher = await conn.createConfirmChannel();
    reader = await conn.createChannel();
  });
  afterEach(async () => {
    while (extra.length) await extra.pop()!.close().catch(() => undefined);
  });
  afterAll(async () => {
    await conn?.close().catch(() => undefined);
    await stack?.stop();
  });

  it('has a durable queue on the events exchange with one consumer, and an empty dead-letter queue', async () => {
    expect(await eventsQueue()).toMatchObject({ queue: names.dispatcherEventsQueue, messageCount: 0, consumerCount: 1 });
    expect(await deadLetterQueue()).toMatchObject({ messageCount: 0, consumerCount: 0 });
  });

  it('consumes and acknowledges a valid room event', async () => {
    await publish(RoomCreatedV2.routingKey, envelope(RoomCreatedV2.type));
    await publish(RoomNotificationSentV2.routingKey, envelope(RoomNotificationSentV2.type, {
      room: roomObject(2), notify: false,
      message: { color: 'yellow', date: new Date().toISOString(), from: 'x', id: randomUUID(), mentions: [], message: 'hi', message_format: 'text', type: 'notification' },
    }));
    await eventually(async () => expect(await eventsQueue()).toMatchObject({ messageCount: 0, consumerCount: 1 }));
    // Deliveries not yet acknowledged do not count as ready, but go back to the queue when
    // their consumer leaves: once both are acknowledged and the dispatcher stopped, nothing may
    // come back. (Closing as soon as none was ready raced the acks on a loaded machine.)
    await eventually(async () => expect(await acknowledged()).toBeGreaterThanOrEqual(2));
    await stack.dispatcher!.close();
    await eventually(async () => expect((await eventsQueue()).consumerCount).toBe(0));
    expect((await eventsQueue()).messageCount).toBe(0);
    expect((await deadLetterQueue()).messageCount).toBe(0);
  });

  describe('with the dispatcher stopped', () => {
    beforeAll(async () => {
      await stack.dispatcher!.close().catch(() => undefined);
      await eventually(async () => expect((await eventsQueue()).consumerCount).toBe(0));
    });

    it('the queue keeps room.*.v2 events (and only those) until a dispatcher takes and acknowledges them', async () => {
      await publish(RoomCreatedV2.routingKey, envelope(RoomCreatedV2.type));
      await publish('room.created.v1', { ...envelope(RoomCreatedV2.type), version: 1 });
      await publish(UserCreatedV1.routingKey, envelope(UserCreatedV1.type, { user: {} }));
      await publish('room.created', envelope(RoomCreatedV2.type));
      expect((await eventsQueue()).messageCount).toBe(1);
      const msg = await reader.get(names.dispatcherEventsQueue);
      expect(msg && msg.fields.routingKey).toBe(RoomCreatedV2.routingKey);
      reader.nack(msg as GetMessage, false, true);
      await eventually(async () => expect((await eventsQueue()).messageCount).toBe(1));

      const replica = await startReplica();
      await eventually(async () => expect(await eventsQueue()).toMatchObject({ messageCount: 0, consumerCount: 1 }));
      await replica.close();
      extra.pop();
      await eventually(async () => expect((await eventsQueue()).consumerCount).toBe(0));
      // Had the event only been delivered, closing the consumer would have requeued it.
      expect((await eventsQueue()).messageCount).toBe(0);
      expect((await deadLetterQueue()).messageCount).toBe(0);
    });

    it('a change made through the rooms service arrives at the dispatcher queue as a room event', async () => {
      const broker = await AmqpBroker.connect(stack.amqpUrl, names, createLogger('test', 'silent'));
      const rpc = await broker.createRpcClient(names.roomsCommandQueue, 10_000);
      try {
        const owner = await rpc.request(CreateUserV1, { email: 'owner@example.com', name: 'Owner' });
        const { room } = await rpc.request(CreateRoomV1, {
          actor: { label: 't' }, name: 'Dispatch Me', owner: { id: owner.user.id }, privacy: 'private', topic: '', guestAccess: false,
        });
        const sent = await rpc.request(SendNotificationV1, {
          actor: { label: 't' }, room: { name: 'Dispatch Me' }, from: 'Bot', message: 'hello', messageFormat: 'text', notify: true, color: 'purple',
        });
        // user.created.v1 is not a room event: only room.created and room.notification-sent arrive.
        await eventually(async () => expect((await eventsQueue()).messageCount).toBe(2));
        const got: GetMessage[] = [];
        for (let i = 0; i < 2; i++) got.push((await reader.get(names.dispatcherEventsQueue)) as GetMessage);
        expect(got.map((m) => m.fields.routingKey)).toEqual([RoomCreatedV2.routingKey, RoomNotificationSentV2.routingKey]);
        const body = JSON.parse(got[1].content.toString());
        expect(got[1].properties).toMatchObject({ contentType: 'application/json', messageId: body.id, deliveryMode: 2 });
        expect(body).toMatchObject({
          type: 'room.notification-sent', version: 2,
          payload: {
            room: { id: room.id, name: 'Dispatch Me', privacy: 'private' },
            message: { id: sent.messageId, message: 'hello', from: 'Bot', color: 'purple', type: 'notification' },
            notify: true,
          },
        });
        for (const m of got) reader.nack(m, false, true);
        await eventually(async () => expect((await eventsQueue()).messageCount).toBe(2));
        await startReplica();
        await eventually(async () => expect(await eventsQueue()).toMatchObject({ messageCount: 0, consumerCount: 1 }));
        expect((await deadLetterQueue()).messageCount).toBe(0);
      } finally {
        await broker.close();
      }
    });
  });

  describe('rejected events', () => {
    beforeEach(async () => {
      await startReplica();
      await readDeadLetters(0);
    });

    it('dead-letters an event whose routing key matches room.*.v2 but is unknown', async () => {
      const body = envelope('room.exploded');
      await publish('room.exploded.v2', body);
      const [dead, ...more] = await readDeadLetters(1);
      expect(more).toEqual([]);
      expect(dead.fields.routingKey).toBe(names.dispatcherEventsQueue);
      expect(JSON.parse(dead.content.toString())).toEqual(body);
      expect(dead.properties.headers?.['x-death']).toEqual([expect.objectContaining({
        queue: names.dispatcherEventsQueue, reason: 'rejected', exchange: names.eventsExchange, 'routing-keys': ['room.exploded.v2'],
      })]);
      expect((await eventsQueue()).messageCount).toBe(0);
    });

    it('dead-letters a body that is not JSON, and one that is not an event envelope', async () => {
      await publish(RoomCreatedV2.routingKey, Buffer.from('{"id": "oops", this is not json'));
      await publish(RoomCreatedV2.routingKey, Buffer.from('null'));
      await publish(RoomCreatedV2.routingKey, { hello: 'world' });
      const dead = await readDeadLetters(3);
      expect(dead.map((m) => m.content.toString()).sort()).toEqual(['null', '{"hello":"world"}', '{"id": "oops", this is not json']);
      for (const m of dead) expect(m.properties.headers?.['x-death']?.[0]).toMatchObject({ reason: 'rejected', 'routing-keys': [RoomCreatedV2.routingKey] });
      expect((await eventsQueue()).messageCount).toBe(0);
    });

    it('dead-letters an envelope whose type does not match its routing key', async () => {
      await publish(RoomCreatedV2.routingKey, envelope('room.deleted'));
      const dead = await readDeadLetters(1);
      expect(dead).toHaveLength(1);
      expect(JSON.parse(dead[0].content.toString()).type).toBe('room.deleted');
    });

    it('keeps consuming valid events after rejecting bad ones', async () => {
      await publish('room.exploded.v2', envelope('room.exploded'));
      await publish(RoomCreatedV2.routingKey, envelope(RoomCreatedV2.type));
      await publish(RoomCreatedV2.routingKey, Buffer.from('garbage'));
      await publish(RoomCreatedV2.routingKey, envelope(RoomCreatedV2.type));
      const dead = await readDeadLetters(2);
      expect(dead).toHaveLength(2);
      await eventually(async () => expect(await eventsQueue()).toMatchObject({ messageCount: 0, consumerCount: 1 }));
      await extra.pop()!.close();
      await eventually(async () => expect((await eventsQueue()).consumerCount).toBe(0));
      expect((await eventsQueue()).messageCount).toBe(0);
    });
  });
});
