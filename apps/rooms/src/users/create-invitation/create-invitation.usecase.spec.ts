import { INVITATION_TTL_SECONDS } from '@app/contracts';
import type { AuditRepository } from '../../audit/audit.repository';
import type { InvitationRepository } from '../invitation.repository';
import type { UserRepository } from '../user.repository';
import { aUser, fakeUnitOfWork, META, PRESENTATION_CTX } from '../fake-tx.spec-support';
import { CreateInvitation } from './create-invitation.usecase';

const TOKEN_HASH = 'c'.repeat(64);

function make(user = aUser()) {
  const fake = fakeUnitOfWork();
  const lines: Array<{ actor: unknown; line: unknown }> = [];
  const invitations = { replace: jest.fn(async () => new Date('2026-12-06T05:00:00Z')) };
  const users = { findByRef: jest.fn(async () => user) };
  const audit = { append: jest.fn(async (_m: unknown, actor: unknown, line: unknown) => void lines.push({ actor, line })) };
  const useCase = new CreateInvitation(fake.uow, users as unknown as UserRepository, invitations as unknown as InvitationRepository,
    audit as unknown as AuditRepository, PRESENTATION_CTX);
  return { useCase, fake, lines, invitations, users };
}

const ADMIN = { label: 'Ada', userId: 1, tokenId: 9 };

describe('CreateInvitation', () => {
  it('keeps the hash for 7 days, in place of the last one, and leaves an audit line naming the user, not the link', async () => {
    const { useCase, fake, lines, invitations, users } = make();
    const reply = await useCase.execute({ actor: ADMIN, user: { email: 'grace@example.com' }, tokenHash: TOKEN_HASH }, META);
    expect(reply).toMatchObject({ expires: '2026-12-06T05:00:00.000Z', user: { id: 7, name: 'Grace Hopper' } });
    // Locked: a deletion committed meanwhile is not outlived by the link.
    expect(users.findByRef).toHaveBeenCalledWith(fake.manager, { email: 'grace@example.com' }, { live: true, lock: true });
    expect(invitations.replace).toHaveBeenCalledWith(fake.manager, 7, TOKEN_HASH, INVITATION_TTL_SECONDS);
    expect(INVITATION_TTL_SECONDS).toBe(604_800);
    expect(lines).toEqual([{ actor: ADMIN, line: { action: 'user.invited', target: { type: 'user', id: 7, name: 'Grace Hopper' }, details: { expires: '2026-12-06T05:00:00.000Z' } } }]);
    expect(JSON.stringify(lines)).not.toContain(TOKEN_HASH);
    expect(fake.emitted).toEqual([]);
  });

  it('refuses a guest, who enters by a room\'s guest link', async () => {
    const { useCase, invitations } = make(aUser({ isGuest: true }));
    await expect(useCase.execute({ actor: ADMIN, user: { id: 7 }, tokenHash: TOKEN_HASH }, META))
      .rejects.toMatchObject({ error: { code: 'invalid', field: 'user', detail: { problem: expect.stringMatching(/^is a guest/) } } });
    expect(invitations.replace).not.toHaveBeenCalled();
  });

  it('refuses a token confined to a room', async () => {
    const { useCase, users } = make();
    await expect(useCase.execute({ actor: { label: 'room', tokenId: 3, roomId: 5 }, user: { id: 7 }, tokenHash: TOKEN_HASH }, META))
      .rejects.toMatchObject({ error: { code: 'forbidden' } });
    expect(users.findByRef).not.toHaveBeenCalled();
  });
});
