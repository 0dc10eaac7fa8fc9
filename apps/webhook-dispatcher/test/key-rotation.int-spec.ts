import { randomBytes } from 'node:crypto';
import { INestApplicationContext } from '@nestjs/common';
import { ChannelModel, connect } from 'amqplib';
import { DataSource } from 'typeorm';
import { AmqpBroker, createLogger, parseConfig, parseSecretKeys, RpcClient, SecretBox } from '@app/common';
import { brokerNames, CreateBridgeV1, CreateRoomV1, CreateUserV1, DeleteRoomV1 } from '@app/contracts';
import { resealSecrets, sum } from '../../rooms/src/secrets/reseal-secrets';
import { SecretsRepository } from '../../rooms/src/secrets/secrets.repository';
import { eventually, Stack, startStack, TEST_SECRETS_KEYS } from '../../../test/support/harness';
import { PlatformReceivers } from '../../../test/support/platform-receivers';
import { startDispatcher } from '../src/bootstrap';
import { dispatcherConfigShape } from '../src/config';
import { Registrations } from '../src/registrations/registrations';

const DISPATCHER_ENV = { WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' };

/*
 * A deleted room's room_deleted reaches its bridges after they are gone, through the forms
 * webhooks_removed keeps (7 days), a Matrix bridge's with its bot's token. A key rotation
 * seals that token again too: a dispatcher that holds only the new key (the old one
 * retired) still posts the room_deleted, with the right token.
 */
describe('key rotation: a deleted Matrix bridge\'s room_deleted posted by a dispatcher with the new key alone', () => {
  let stack: Stack;
  let platforms: PlatformReceivers;
  let broker: AmqpBroker;
  let rpc: RpcClient;
  let amqp: ChannelModel;
  let retired: INestApplicationContext | undefined;
  const next = `next:${randomBytes(32).toString('base64')}`;

  beforeAll(async () => {
    platforms = await new PlatformReceivers().start();
    stack = await startStack({ rooms: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, dispatcher: DISPATCHER_ENV });
    broker = await AmqpBroker.connect(stack.amqpUrl, brokerNames(stack.namespace), createLogger('test', 'silent'));
    rpc = await broker.createRpcClient(brokerNames(stack.namespace).roomsCommandQueue, 10_000);
    amqp = await connect(stack.amqpUrl);
  });

  afterAll(async () => {
    await retired?.close().catch(() => undefined);
    await platforms?.stop();
    await amqp?.close().catch(() => undefined);
    await broker?.close();
    await stack?.stop();
  });

  it('rotates, retires the old key, then posts the room_deleted with the token the removed form keeps', async () => {
    const ownerId = (await rpc.request(CreateUserV1, { email: 'rotation@example.com', name: 'Owner', isGroupAdmin: true })).user.id;
    const actor = { label: 'admin', userId: ownerId };
    const { room } = await rpc.request(CreateRoomV1, { actor, name: 'Doomed', owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false });
    const { bridge } = await rpc.request(CreateBridgeV1, {
      actor, room: { id: room.id }, kind: 'matrix', url: platforms.urlOf('matrix', 'doomed'), events: ['room_deleted'],
      matrix: { room_id: '!doomed:example.org', access_token: 'syt_kept_after_deletion' },
    });
    await eventually(() => expect(stack.dispatcher!.get(Registrations).get(bridge.id)).toBeDefined(), 3_000);

    // The dispatcher stopped, the room_deleted waits in its queue while the key is rotated.
    await stack.dispatcher!.close();
    const channel = await amqp.createChannel();
    const eventsQueue = () => channel.checkQueue(brokerNames(stack.namespace).dispatcherEventsQueue);
    await eventually(async () => expect((await eventsQueue()).consumerCount).toBe(0));
    await rpc.request(DeleteRoomV1, { actor, room: { id: room.id } });
    await eventually(async () => expect((await eventsQueue()).messageCount).toBeGreaterThanOrEqual(1));

    const secrets = new SecretsRepository(stack.rooms!.get(DataSource));
    const rotation = await resealSecrets(secrets, new SecretBox(parseSecretKeys(`${next},${TEST_SECRETS_KEYS}`)));
    expect(rotation.resealed.removed_bridge_matrix_tokens).toBeGreaterThanOrEqual(1);
    expect(sum(rotation.unreadable)).toBe(0);
    // What the operator checks before dropping the old key: nothing is left under it.
    const check = await resealSecrets(secrets, new SecretBox(parseSecretKeys(next)));
    expect({ resealed: sum(check.resealed), unreadable: sum(check.unreadable) }).toEqual({ resealed: 0, unreadable: 0 });

    retired = await startDispatcher(parseConfig(dispatcherConfigShape, {
      SECRETS_KEYS: next, AMQP_URL: stack.amqpUrl, BROKER_NAMESPACE: stack.namespace, DATABASE_URL: stack.databaseUrl,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', METRICS_PORT: '0', ...DISPATCHER_ENV,
    }));
    const [post] = await platforms.waitFor('matrix', () => platforms.postsTo('matrix', 'doomed').length >= 1);
    expect(post.headers.authorization).toBe('Bearer syt_kept_after_deletion');
    expect(JSON.stringify(post.body)).toContain('deleted the room Doomed');
    await channel.close();
  });
});
