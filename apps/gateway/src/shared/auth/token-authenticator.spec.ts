import { createLogger, hashApiToken } from '@app/common';
import { AuthenticatedToken, EventEnvelope, ResolveTokenV1 } from '@app/contracts';
import type { RoomsClient } from '../rooms-client';
import { TokenAuthenticator } from './token-authenticator';

const TOKEN: AuthenticatedToken = { id: 5, kind: 'admin', label: 'ci', userId: null, roomId: null, scopes: [] };
const CLEAR = 'a'.repeat(40);

function setup() {
  const known = new Map<string, AuthenticatedToken>([[hashApiToken(CLEAR), TOKEN]]);
  const send = jest.fn(async (_command: unknown, payload: { tokenHash: string }) => ({ token: known.get(payload.tokenHash) ?? null }));
  let onEvent!: (envelope: EventEnvelope, routingKey: string) => void;
  let onConnect!: () => void;
  const broker = {
    subscribeTransient: jest.fn(async (_bindings: string[], e: typeof onEvent, c: typeof onConnect) => {
      onEvent = e;
      onConnect = c;
      c();
      return { stop: async () => undefined };
    }),
  };
  const auth = new TokenAuthenticator({ send } as unknown as RoomsClient, broker, createLogger('test', 'silent'));
  const notice = (payload: unknown) => onEvent({ id: 'e', type: 'token.revoked', version: 1, occurredAt: new Date().toISOString(), payload } as EventEnvelope, 'token.revoked.v1');
  const userNotice = (routingKey: string, payload: unknown) =>
    onEvent({ id: 'u', type: routingKey.replace(/\.v1$/, ''), version: 1, occurredAt: new Date().toISOString(), payload } as EventEnvelope, routingKey);
  return { auth, send, broker, known, notice, userNotice, reconnect: () => onConnect() };
}

describe('TokenAuthenticator', () => {
  it('listens for token.revoked.v1 on start', async () => {
    const { auth, broker } = setup();
    await auth.onModuleInit();
    expect(broker.subscribeTransient).toHaveBeenCalledWith(['token.revoked.v1', 'user.updated.v1', 'user.deleted.v1'], expect.any(Function), expect.any(Function));
  });

  it('asks the rooms service once, by hash (never the clear token), then answers from its cache', async () => {
    const { auth, send } = setup();
    await auth.onModuleInit();
    expect(await auth.authenticate(CLEAR)).toEqual(TOKEN);
    expect(await auth.authenticate(CLEAR)).toEqual(TOKEN);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith(ResolveTokenV1, { tokenHash: hashApiToken(CLEAR) });
    expect(JSON.stringify(send.mock.calls)).not.toContain(CLEAR);
  });

  it('forgets a token when its revocation notice arrives', async () => {
    const { auth, send, known, notice } = setup();
    await auth.onModuleInit();
    await auth.authenticate(CLEAR);
    known.clear();
    notice({ tokenId: 5 });
    expect(await auth.authenticate(CLEAR)).toBeNull();
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('forgets every token acting as a user when the user changes or is deleted, and only those', async () => {
    const { auth, send, known, userNotice } = setup();
    const personal = (id: number, userId: number): AuthenticatedToken => ({ id, kind: 'personal', label: `p${id}`, userId, roomId: null, scopes: ['admin_group'] });
    const [ada1, ada2, bob] = ['b'.repeat(40), 'c'.repeat(40), 'd'.repeat(40)];
    known.set(hashApiToken(ada1), personal(11, 7));
    known.set(hashApiToken(ada2), { ...personal(12, 7), kind: 'session' });
    known.set(hashApiToken(bob), personal(13, 8));
    await auth.onModuleInit();
    for (const t of [ada1, ada2, bob, CLEAR]) await auth.authenticate(t);
    expect(send).toHaveBeenCalledTimes(4);
    // Demoted: the rooms service now resolves Ada's tokens without admin_group.
    known.set(hashApiToken(ada1), { ...personal(11, 7), scopes: [] });
    userNotice('user.updated.v1', { user: { id: 7, name: 'Ada', mention_name: 'ada', version: 'X', links: { self: '' } } });
    expect(await auth.authenticate(ada1)).toMatchObject({ id: 11, scopes: [] });
    await auth.authenticate(ada2);
    await auth.authenticate(bob);
    await auth.authenticate(CLEAR);
    expect(send).toHaveBeenCalledTimes(6);
    known.delete(hashApiToken(bob));
    userNotice('user.deleted.v1', { user: { id: 8 } });
    expect(await auth.authenticate(bob)).toBeNull();
    // A notice it cannot read: some user changed, so nothing cached is trusted.
    userNotice('user.updated.v1', { user: 'ada' });
    await auth.authenticate(CLEAR);
    expect(send).toHaveBeenCalledTimes(8);
  });

  it('keeps other tokens on a notice about another one', async () => {
    const { auth, send, notice } = setup();
    await auth.onModuleInit();
    await auth.authenticate(CLEAR);
    notice({ tokenId: 6 });
    await auth.authenticate(CLEAR);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('forgets everything after a reconnection, or on a notice it cannot read', async () => {
    const { auth, send, notice, reconnect } = setup();
    await auth.onModuleInit();
    await auth.authenticate(CLEAR);
    reconnect();
    await auth.authenticate(CLEAR);
    expect(send).toHaveBeenCalledTimes(2);
    notice({ tokenId: 'five' });
    await auth.authenticate(CLEAR);
    expect(send).toHaveBeenCalledTimes(3);
  });
});
