import { randomUUID } from 'node:crypto';
import { INestApplicationContext } from '@nestjs/common';
import { AmqpBroker, createLogger, parseConfig, RpcClient } from '@app/common';
import {
  brokerNames, CreateRoomV1, CreateUserV1, CreateWebhookV1, DeleteRoomV1, DeleteWebhookV1, EnterRoomV1, InstallAddonV1, SendNotificationV1, UninstallAddonV1,
} from '@app/contracts';
import { TEST_SECRETS_KEYS, Stack, startStack } from '../../../test/support/harness';
import { startDispatcher } from '../src/bootstrap';
import { dispatcherConfigShape } from '../src/config';
import { Receiver } from './receiver';

/*
 * A registration change is in force as soon as its call has answered: every event caused
 * afterwards is matched against it, on every dispatcher replica, with no wait for the
 * change notice. Two replicas share the events queue, so each round's message may be
 * matched by either. Each round sends its message the moment the change answered.
 */
const ROUNDS = 50;
const DISPATCHER_ENV = { WEBHOOK_RETRY_SCHEDULE: '200ms', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('registration changes in force before the call answers (two dispatcher replicas)', () => {
  let stack: Stack;
  let second: INestApplicationContext;
  let receiver: Receiver;
  let broker: AmqpBroker;
  let rpc: RpcClient;
  let ownerId: number;
  let roomId: number;
  const actor = () => ({ label: 'admin', userId: ownerId });

  const notify = (message: string) => rpc.request(SendNotificationV1, {
    actor: { label: 'ci' }, room: { id: roomId }, message, messageFormat: 'text', notify: false, color: 'yellow',
  });

  /** The messages a path received, by their text. */
  const messagesTo = (path: string) => receiver.to(path).map((r) => JSON.parse(r.body).item.message.message as string);

  /** Waits until `path` has the message `text`, or fails after `ms`. */
  const arrives = async (path: string, text: string, ms = 5_000) => {
    const until = Date.now() + ms;
    while (!messagesTo(path).includes(text)) {
      if (Date.now() > until) throw new Error(`${text} did not reach ${path} within ${ms} ms (got ${JSON.stringify(messagesTo(path))})`);
      await sleep(10);
    }
  };

  beforeAll(async () => {
    receiver = await Receiver.start();
    stack = await startStack({ rooms: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, dispatcher: DISPATCHER_ENV });
    second = await startDispatcher(parseConfig(dispatcherConfigShape, {
      SECRETS_KEYS: TEST_SECRETS_KEYS,
      AMQP_URL: stack.amqpUrl, BROKER_NAMESPACE: stack.namespace, DATABASE_URL: stack.databaseUrl,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', METRICS_PORT: '0', ...DISPATCHER_ENV,
    }));
    broker = await AmqpBroker.connect(stack.amqpUrl, brokerNames(stack.namespace), createLogger('test', 'silent'));
    rpc = await broker.createRpcClient(brokerNames(stack.namespace).roomsCommandQueue, 10_000);
    ownerId = (await rpc.request(CreateUserV1, { email: 'owner@example.com', name: 'Owner', isGroupAdmin: true })).user.id;
    roomId = (await rpc.request(CreateRoomV1, {
      actor: { label: 't' }, name: 'In Force', owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false,
    })).room.id;
  });

  afterAll(async () => {
    await second?.close().catch(() => undefined);
    await receiver?.stop();
    await broker?.close();
    await stack?.stop();
  });

  it(`a webhook registered, then at once a message: delivered; deleted, then at once a message: not delivered (${ROUNDS} times)`, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      const path = `/hook-${round}`;
      const url = receiver.route(path, { status: 204 });
      const { webhook } = await rpc.request(CreateWebhookV1, { actor: actor(), room: { id: roomId }, url, event: 'room_notification', name: `round ${round}` });
      await notify(`after register ${round}`);
      await rpc.request(DeleteWebhookV1, { actor: actor(), room: { id: roomId }, webhook: { id: webhook.id } });
      await notify(`after delete ${round}`);
      await arrives(path, `after register ${round}`);
    }
    // The deleted webhooks' last messages had every chance to arrive (and a round's own later deliveries too).
    await sleep(500);
    for (let round = 1; round <= ROUNDS; round++) {
      expect(messagesTo(`/hook-${round}`)).toEqual([`after register ${round}`]);
    }
  });

  it(`an add-on installed, then at once a message: delivered; uninstalled, then at once a message: not delivered (${ROUNDS} times)`, async () => {
    receiver.route('/addon/installed', { status: 200, body: '{}', headers: { 'content-type': 'application/json' } });
    for (let round = 1; round <= ROUNDS; round++) {
      const hook = `/addon/hook-${round}`;
      const descriptor = {
        key: `com.example.in-force-${round}`,
        name: `In force ${round}`,
        links: { self: `${receiver.base}/addon/descriptor-${round}`, homepage: `${receiver.base}/` },
        capabilities: {
          installable: { callbackUrl: `${receiver.base}/addon/installed`, allowRoom: true, allowGlobal: true },
          hipchatApiConsumer: { scopes: ['send_notification'] },
          webhook: [{ url: `${receiver.base}${hook}`, event: 'room_notification', name: 'Hook' }],
        },
      };
      const descriptorUrl = receiver.route(`/addon/descriptor-${round}`, {
        status: 200, body: JSON.stringify(descriptor), headers: { 'content-type': 'application/json' },
      });
      const { installation } = await rpc.request(InstallAddonV1, { actor: actor(), url: descriptorUrl, room: { id: roomId } });
      await notify(`after install ${round}`);
      await rpc.request(UninstallAddonV1, { actor: actor(), id: installation.id });
      await notify(`after uninstall ${round}`);
      await arrives(hook, `after install ${round}`);
    }
    await sleep(500);
    for (let round = 1; round <= ROUNDS; round++) {
      expect(messagesTo(`/addon/hook-${round}`)).toEqual([`after install ${round}`]);
    }
  });

  // Ordered: the deletion's events reach the ordered deliveries' queue only if the outbox
  // routes them there, though the room's ordered webhooks are gone in that same transaction.
  it.each(['concurrent', 'ordered'] as const)('a room deleted: its own %s webhooks get its room_exit and room_deleted, though the deletion removes them', async (delivery) => {
    const doomed = (await rpc.request(CreateRoomV1, {
      actor: actor(), name: `Doomed ${delivery}`, owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false,
    })).room.id;
    const path = (event: string) => `/doomed-${delivery}/${event}`;
    for (const event of ['room_deleted', 'room_exit'] as const) {
      await rpc.request(CreateWebhookV1, { actor: actor(), room: { id: doomed }, url: receiver.route(path(event), { status: 204 }), event, name: event, delivery });
    }
    await rpc.request(EnterRoomV1, { actor: actor(), room: { id: doomed }, user: { id: ownerId } });
    await rpc.request(DeleteRoomV1, { actor: actor(), room: { id: doomed } });
    const until = Date.now() + 5_000;
    while ((receiver.to(path('room_deleted')).length === 0 || receiver.to(path('room_exit')).length === 0) && Date.now() < until) await sleep(10);
    // Once each: a second copy would have had the time to arrive.
    await sleep(300);
    expect(receiver.to(path('room_exit')).map((r) => JSON.parse(r.body))).toEqual([
      expect.objectContaining({ event: 'room_exit', item: expect.objectContaining({ room: expect.objectContaining({ id: doomed }), sender: expect.objectContaining({ id: ownerId }) }) }),
    ]);
    expect(receiver.to(path('room_deleted')).map((r) => JSON.parse(r.body))).toEqual([
      expect.objectContaining({ event: 'room_deleted', item: expect.objectContaining({ room: expect.objectContaining({ id: doomed, name: `Doomed ${delivery}` }) }) }),
    ]);
  });

  it('a room created right after an uninstall is not announced to the uninstalled group-wide add-on', async () => {
    const descriptor = {
      key: `com.example.group-${randomUUID().slice(0, 8)}`,
      name: 'Group wide',
      links: { self: `${receiver.base}/addon/group-descriptor`, homepage: `${receiver.base}/` },
      capabilities: {
        installable: { callbackUrl: `${receiver.base}/addon/installed`, allowRoom: true, allowGlobal: true },
        webhook: [{ url: `${receiver.base}/addon/group-hook`, event: 'room_created', name: 'Rooms' }],
      },
    };
    const url = receiver.route('/addon/group-descriptor', { status: 200, body: JSON.stringify(descriptor), headers: { 'content-type': 'application/json' } });
    const { installation } = await rpc.request(InstallAddonV1, { actor: actor(), url });
    await rpc.request(CreateRoomV1, { actor: actor(), name: 'Announced', owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false });
    await rpc.request(UninstallAddonV1, { actor: actor(), id: installation.id });
    await rpc.request(CreateRoomV1, { actor: actor(), name: 'Not announced', owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false });
    const until = Date.now() + 5_000;
    while (receiver.to('/addon/group-hook').length === 0 && Date.now() < until) await sleep(10);
    await sleep(500);
    expect(receiver.to('/addon/group-hook').map((r) => JSON.parse(r.body).item.room.name)).toEqual(['Announced']);
  });
});
