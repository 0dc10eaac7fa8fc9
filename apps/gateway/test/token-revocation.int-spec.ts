import { randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
import { DataSource } from 'typeorm';
import { hashApiToken } from '@app/common';
import { brokerNames, EventEnvelope, TokenRevokedV1, TokenRevokedV1Payload } from '@app/contracts';
import { UnitOfWork } from '../../../apps/rooms/src/outbox/unit-of-work';
import { TokenCommands } from '../../../apps/rooms/src/cli/token-commands';
import { eventually, Stack, startStack, v1 } from '../../../test/support/harness';
import { expectError, expectJson } from './gateway-helpers';

/**
 * Tokens are cached by every gateway replica (no broker round trip to authenticate a
 * known token); a revocation reaches every replica by the `token.revoked.v1` notice.
 */
describe('token revocation across gateway replicas (real rooms service, Postgres, RabbitMQ)', () => {
  let stack: Stack;
  let replicas: string[];

  beforeAll(async () => {
    stack = await startStack({ gateway: true, rooms: true });
    replicas = [stack.baseUrl, await stack.addGateway()];
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const db = () => stack.rooms!.get(DataSource);
  const list = (baseUrl: string, token: string) => v1(baseUrl, 'GET', 'rooms/list', { auth_token: token });

  async function tokenId(token: string): Promise<number> {
    const rows: Array<{ id: number }> = await db().query('SELECT id FROM api_tokens WHERE token_hash = $1', [hashApiToken(token)]);
    return rows[0].id;
  }

  async function publishRevoked(payload: TokenRevokedV1Payload): Promise<void> {
    const envelope: EventEnvelope<TokenRevokedV1Payload> = {
      id: randomUUID(), type: TokenRevokedV1.type, version: TokenRevokedV1.version, occurredAt: new Date().toISOString(), payload,
    };
    const conn = await connect(stack.amqpUrl);
    try {
      const ch = await conn.createConfirmChannel();
      ch.publish(brokerNames(stack.namespace).eventsExchange, TokenRevokedV1.routingKey, Buffer.from(JSON.stringify(envelope)), { contentType: 'application/json' });
      await ch.waitForConfirms();
      await ch.close();
    } finally {
      await conn.close();
    }
  }

  /** Both replicas refuse the token within a second. */
  async function refusedEverywhereWithinOneSecond(token: string): Promise<void> {
    const started = Date.now();
    await eventually(async () => {
      for (const baseUrl of replicas) expectError(await list(baseUrl, token), 401, 'Unauthorized', /^Auth token invalid/);
    }, 1_000);
    expect(Date.now() - started).toBeLessThan(1_500);
  }

  it('answers a known token from the cache of each replica, without asking the rooms service again', async () => {
    const token = await stack.createToken('admin');
    for (const baseUrl of replicas) expectJson(await list(baseUrl, token), 200);
    // Revoked behind the gateways' backs (no notice): the cached answer still holds...
    await db().query('UPDATE api_tokens SET revoked_at = now() WHERE id = $1', [await tokenId(token)]);
    for (const baseUrl of replicas) expectJson(await list(baseUrl, token), 200);
    // ...until the notice arrives.
    await publishRevoked({ tokenId: await tokenId(token) });
    await refusedEverywhereWithinOneSecond(token);
  });

  it('drops only the revoked token', async () => {
    const kept = await stack.createToken('admin');
    const revoked = await stack.createToken('admin');
    for (const baseUrl of replicas) {
      expectJson(await list(baseUrl, kept), 200);
      expectJson(await list(baseUrl, revoked), 200);
    }
    await db().query('UPDATE api_tokens SET revoked_at = now() WHERE id = $1', [await tokenId(revoked)]);
    await publishRevoked({ tokenId: await tokenId(revoked) });
    await refusedEverywhereWithinOneSecond(revoked);
    for (const baseUrl of replicas) expectJson(await list(baseUrl, kept), 200);
  });

  it('stops a token revoked as the CLI revokes it on every replica within a second', async () => {
    const tokens = new TokenCommands(db(), stack.rooms!.get(UnitOfWork));
    const created = await tokens.create('notification', 'revoked by the CLI');
    for (const baseUrl of replicas) {
      expectJson(await v1(baseUrl, 'GET', 'rooms/message', { auth_token: created.token, auth_test: 'true' }), 202);
    }
    expect(await tokens.revoke(created.id)).toBe(true);
    const started = Date.now();
    await eventually(async () => {
      for (const baseUrl of replicas) {
        expectError(await v1(baseUrl, 'GET', 'rooms/message', { auth_token: created.token, auth_test: 'true' }), 401, 'Unauthorized');
      }
    }, 1_000);
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});
