import { TokenRevokedV1 } from '@app/contracts';
import type { AuditRepository } from '../../audit/audit.repository';
import type { InvitationRepository } from '../invitation.repository';
import type { SessionRepository } from '../session.repository';
import type { UserRepository } from '../user.repository';
import { aUser, fakeUnitOfWork, META, PRESENTATION_CTX } from '../fake-tx.spec-support';
import { AcceptInvitation } from './accept-invitation.usecase';

const TOKEN_HASH = 'a'.repeat(64);
const SESSION_HASH = 'b'.repeat(64);

/** The use case on a fake transaction, the invitation found or not, the user live or not. */
function make(opts: { invitation: boolean; live?: boolean }) {
  const fake = fakeUnitOfWork();
  const writes: string[] = [];
  const lines: Array<{ actor: unknown; line: unknown }> = [];
  const invitations = { take: jest.fn(async () => (opts.invitation ? { userId: 7 } : null)) };
  const sessions = {
    lockCredentials: jest.fn(async () => (opts.live === false ? null : 'old-hash')),
    revokeAllOf: jest.fn(async () => (writes.push('revoke'), [31, 32])),
    pruneEnded: jest.fn(async () => undefined),
    insert: jest.fn(async () => (writes.push('session'), { id: 40, expires: new Date('2026-12-01T00:00:00Z') })),
  };
  const users = {
    setPasswordHash: jest.fn(async (_m: unknown, _id: number, hash: string) => void writes.push(`password ${hash.slice(0, 7)}`)),
    findByRef: jest.fn(async () => aUser()),
  };
  const audit = { append: jest.fn(async (_m: unknown, actor: unknown, line: unknown) => void lines.push({ actor, line })) };
  const useCase = new AcceptInvitation(fake.uow, invitations as unknown as InvitationRepository, users as unknown as UserRepository,
    sessions as unknown as SessionRepository, audit as unknown as AuditRepository, PRESENTATION_CTX);
  const run = () => useCase.execute({ tokenHash: TOKEN_HASH, password: 'correct horse 1', sessionHash: SESSION_HASH, ttlSeconds: 3600, address: '203.0.113.7' }, META);
  return { run, fake, writes, lines, invitations, sessions };
}

describe('AcceptInvitation', () => {
  it('sets the password, ends the other sessions (every gateway told), signs in, and leaves an audit line without a secret', async () => {
    const { run, fake, writes, lines, invitations, sessions } = make({ invitation: true });
    const reply = await run();
    expect(reply.session).toMatchObject({ id: 40, expires: '2026-12-01T00:00:00.000Z', user: { id: 7, email: 'grace@example.com' } });
    expect(invitations.take).toHaveBeenCalledWith(fake.manager, TOKEN_HASH);
    expect(writes).toEqual([expect.stringMatching(/^password scrypt/), 'revoke', 'session']);
    expect(sessions.insert).toHaveBeenCalledWith(fake.manager, { userId: 7, tokenHash: SESSION_HASH, ttlSeconds: 3600 });
    expect(fake.emitted).toEqual([[TokenRevokedV1.routingKey, { tokenId: 31 }], [TokenRevokedV1.routingKey, { tokenId: 32 }]]);
    // Answered once the revocations are on the broker, as a password change is.
    expect(fake.options).toEqual([{ replyAfterPublish: true }]);
    expect(lines).toEqual([{ actor: { label: 'Grace Hopper', userId: 7, address: '203.0.113.7' }, line: { action: 'user.invitation_accepted', target: { type: 'user', id: 7, name: 'Grace Hopper' } } }]);
    expect(JSON.stringify(lines)).not.toMatch(/a{64}|b{64}|correct horse/);
  });

  it('answers no session, and changes nothing, for a link unknown, used or expired', async () => {
    const { run, writes, lines, fake } = make({ invitation: false });
    expect(await run()).toEqual({ session: null });
    expect(writes).toEqual([]);
    expect(lines).toEqual([]);
    expect(fake.emitted).toEqual([]);
  });

  it('answers the same for the link of a user deleted meanwhile', async () => {
    const { run, writes, lines } = make({ invitation: true, live: false });
    expect(await run()).toEqual({ session: null });
    expect(writes).toEqual([]);
    expect(lines).toEqual([]);
  });
});
