import jwt from 'jsonwebtoken';
import { Webhook } from 'standardwebhooks';
import { AmqpBroker, createLogger, RpcClient } from '@app/common';
import { brokerNames, CreateRoomV1, CreateUserV1, InstallAddonV1, ListRegistrationsV1, SendNotificationV1, UninstallAddonV1 } from '@app/contracts';
import { eventually, openedSecret, Stack, startStack } from '../../../test/support/harness';
import { standardWebhookKey } from '../src/signing/standard-webhooks';
import { Received, Receiver } from './receiver';

/*
 * A webhook an add-on registers over REST with its own OAuth token (as ac-koa-hipchat and
 * atlassian-connect-express do) is delivered as the add-on's: the envelope names its OAuth
 * client, the JWT is issued by it and signed with its oauthSecret, and so is the Standard
 * Webhooks signature. Frameworks find the installation by `iss` / `oauth_client_id`. A
 * user's REST webhook is delivered as before: issued by the webhook, with its own secret.
 */
const DISPATCHER_ENV = { WEBHOOK_RETRY_SCHEDULE: '200ms', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' };

describe('webhooks an add-on registers over REST with its token (gateway, rooms, dispatcher, a local add-on)', () => {
  let stack: Stack;
  let receiver: Receiver;
  let broker: AmqpBroker;
  let rpc: RpcClient;
  let ownerId: number;
  let roomId: number;
  let personal: string;
  const owner = () => ({ label: 'admin', userId: ownerId });

  const v2 = async (verb: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${stack.baseUrl}/v2/${path}`, {
      method: verb,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };

  const notify = (message: string) => rpc.request(SendNotificationV1, {
    actor: owner(), room: { id: roomId }, message, messageFormat: 'text', notify: false, color: 'yellow',
  });

  /** The request to `path` carrying the notification `text`, once it arrived. */
  const arrived = (path: string, text: string) => eventually(() => {
    const found = receiver.to(path).find((r) => JSON.parse(r.body).item?.message?.message === text);
    expect(found).toBeDefined();
    return found!;
  }, 5_000);

  const jwtOf = (r: Received) => String(r.headers.authorization).replace(/^JWT /, '');
  const standardSignatureOf = (r: Received, secret: string) => new Webhook(standardWebhookKey(secret)).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });

  /** Installs an add-on (in the room, or group-wide); answers its installation and the credentials its callback got. */
  const install = async (name: string, inRoom: boolean) => {
    const descriptor = {
      key: `com.example.${name}`,
      name: `Add-on ${name}`,
      links: { self: `${receiver.base}/${name}/descriptor`, homepage: `${receiver.base}/` },
      capabilities: {
        installable: { callbackUrl: `${receiver.base}/${name}/installed`, allowRoom: true, allowGlobal: true },
        hipchatApiConsumer: { scopes: ['send_notification', 'admin_room'] },
      },
    };
    receiver.route(`/${name}/installed`, { status: 200, body: '{}', headers: { 'content-type': 'application/json' } });
    const url = receiver.route(`/${name}/descriptor`, { status: 200, body: JSON.stringify(descriptor), headers: { 'content-type': 'application/json' } });
    const { installation } = await rpc.request(InstallAddonV1, { actor: owner(), url, ...(inRoom ? { room: { id: roomId } } : {}) });
    const callback = JSON.parse(receiver.to(`/${name}/installed`)[0].body) as { oauthId: string; oauthSecret: string };
    return { installation, oauthId: callback.oauthId, oauthSecret: callback.oauthSecret };
  };

  /** The client credentials grant, form-encoded, as frameworks send it. */
  const addonToken = async (oauthId: string, oauthSecret: string): Promise<string> => {
    const res = await fetch(`${stack.baseUrl}/v2/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${oauthId}:${oauthSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials&scope=admin_room+send_notification',
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  };

  beforeAll(async () => {
    receiver = await Receiver.start();
    stack = await startStack({
      gateway: { V2_RATE_LIMIT_MAX: '100000' }, rooms: { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }, dispatcher: DISPATCHER_ENV,
    });
    broker = await AmqpBroker.connect(stack.amqpUrl, brokerNames(stack.namespace), createLogger('test', 'silent'));
    rpc = await broker.createRpcClient(brokerNames(stack.namespace).roomsCommandQueue, 10_000);
    ownerId = (await rpc.request(CreateUserV1, { email: 'owner@example.com', name: 'Owner', isGroupAdmin: true })).user.id;
    roomId = (await rpc.request(CreateRoomV1, {
      actor: owner(), name: 'Add-on Hooks', owner: { id: ownerId }, privacy: 'public', topic: '', guestAccess: false,
    })).room.id;
    personal = await stack.createToken('personal', 'owner', { user: String(ownerId) });
  });

  afterAll(async () => {
    await receiver?.stop();
    await broker?.close();
    await stack?.stop();
  });

  for (const [name, inRoom] of [['roomy', true], ['groupy', false]] as const) {
    it(`${inRoom ? 'installed in the room' : 'group-wide'}: delivered with its oauth_client_id, JWT and signature keyed by its oauthSecret`, async () => {
      const { oauthId, oauthSecret } = await install(name, inRoom);
      const token = await addonToken(oauthId, oauthSecret);
      const hook = `/${name}/hook`;
      const made = await v2('POST', `room/${roomId}/webhook`, token, {
        url: `${receiver.route(hook, { status: 204 })}?tenant=abc`, event: 'room_notification', authentication: 'jwt', name: 'Dynamic',
      });
      expect(made.status).toBe(201);
      // It signs with the oauthSecret the add-on holds: no other secret to hand out.
      expect(made.json).toEqual({ id: expect.any(Number), links: { self: expect.stringMatching(/\/webhook\/\d+$/) } });
      const webhookId: number = made.json.id;
      // The keyed form (PUT .../extension/webhook/{key}) likewise.
      const put = await v2('PUT', `room/${roomId}/extension/webhook/${name}`, token, { url: `${receiver.base}/${name}/keyed`, event: 'room_exit' });
      expect(put).toEqual({ status: 201, json: { id: expect.any(Number), links: { self: expect.any(String) } } });
      const listed = (await rpc.request(ListRegistrationsV1, {})).registrations.filter((r) => r.id === webhookId || r.id === put.json.id);
      expect(listed).toEqual([
        expect.objectContaining({ id: webhookId, oauthClientId: oauthId, installationId: null }),
        expect.objectContaining({ id: put.json.id, oauthClientId: oauthId, installationId: null }),
      ]);
      expect(listed.map(openedSecret)).toEqual([oauthSecret, oauthSecret]);

      await notify(`for ${name}`);
      const got = await arrived(hook, `for ${name}`);
      expect(JSON.parse(got.body)).toMatchObject({ event: 'room_notification', webhook_id: webhookId, oauth_client_id: oauthId });
      const claims = jwt.verify(jwtOf(got), oauthSecret, { algorithms: ['HS256'] }) as jwt.JwtPayload;
      expect(claims).toMatchObject({ iss: oauthId, sub: String(ownerId), context: { room_id: roomId } });
      expect(new URL(got.url, receiver.base).searchParams.get('signed_request')).toBe(jwtOf(got));
      expect(new URL(got.url, receiver.base).searchParams.get('tenant')).toBe('abc');
      expect(standardSignatureOf(got, oauthSecret)).toMatchObject({ oauth_client_id: oauthId });
    });
  }

  it('an event caused just before the add-on is uninstalled still reaches its REST webhook as the add-on\'s', async () => {
    const { installation, oauthId, oauthSecret } = await install('leaving', true);
    const token = await addonToken(oauthId, oauthSecret);
    const hook = '/leaving/hook';
    const made = await v2('POST', `room/${roomId}/webhook`, token, { url: receiver.route(hook, { status: 204 }), event: 'room_notification', authentication: 'jwt' });
    expect(made.status).toBe(201);

    await notify('last words');
    await rpc.request(UninstallAddonV1, { actor: owner(), id: installation.id });
    // The registration is gone; the dispatcher matches the event with the removed form, which still names the add-on.
    const { registrations, removed } = await rpc.request(ListRegistrationsV1, {});
    expect(registrations.find((r) => r.id === made.json.id)).toBeUndefined();
    const form = removed.find((r) => r.id === made.json.id)!;
    expect(form).toMatchObject({ oauthClientId: oauthId });
    expect(openedSecret(form)).toBe(oauthSecret);
    const got = await arrived(hook, 'last words');
    expect(JSON.parse(got.body)).toMatchObject({ webhook_id: made.json.id, oauth_client_id: oauthId });
    expect(jwt.verify(jwtOf(got), oauthSecret, { algorithms: ['HS256'] })).toMatchObject({ iss: oauthId });
    expect(standardSignatureOf(got, oauthSecret)).toBeDefined();
  });

  it('a user\'s REST webhook is unchanged: its own secret, issued by the webhook, no oauth_client_id', async () => {
    const hook = '/user/hook';
    const made = await v2('POST', `room/${roomId}/webhook`, personal, { url: receiver.route(hook, { status: 204 }), event: 'room_notification', authentication: 'jwt' });
    expect(made.status).toBe(201);
    const secret: string = made.json.secret;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    await notify('for the user');
    const got = await arrived(hook, 'for the user');
    expect(JSON.parse(got.body)).not.toHaveProperty('oauth_client_id');
    expect(jwt.verify(jwtOf(got), secret, { algorithms: ['HS256'] })).toMatchObject({ iss: String(made.json.id), sub: String(ownerId) });
    expect(standardSignatureOf(got, secret)).toMatchObject({ webhook_id: made.json.id });
  });
});
