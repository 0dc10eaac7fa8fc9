import { createLogger } from '@app/common';
import { WebhookRegistrationsChangedV1 } from '@app/contracts';
import type { AuditRepository } from '../../audit/audit.repository';
import type { FileLinkScope, RoomRepository } from '../../rooms/room.repository';
import type { CreatorStanding, WebhookRepository } from '../webhook.repository';
import { WebhookAccessSteps } from './webhook-access-steps';

const standing = (webhookId: number, roomId: number, privacy: 'public' | 'private', isMember: boolean, isDeleted = false): CreatorStanding => ({
  webhookId, roomId, room: { privacy }, webhook: { name: null, url: `https://hooks.example.com/${webhookId}?token=secret` }, creator: { id: 7, isDeleted, isGroupAdmin: false, isMember, isOwner: false },
});

/** The step on a fake repository and a fake transaction that records what it emits. */
const make = (standings: CreatorStanding[], reply: Awaited<ReturnType<WebhookRepository['lockForReply']>> = null) => {
  const disabled: Array<[number, string]> = [];
  const emitted: Array<[string, unknown]> = [];
  const lines: unknown[] = [];
  const audit = { append: jest.fn(async (_m: unknown, actor: unknown, line: unknown) => void lines.push({ actor, line })) };
  const repo = {
    creatorStandings: jest.fn(async () => standings),
    disable: jest.fn(async (_m: unknown, id: number, reason: string) => (disabled.push([id, reason]), { id })),
    lockForReply: jest.fn(async () => reply),
  };
  const revoked: FileLinkScope[] = [];
  const rooms = { revokeFileLinks: jest.fn(async (_m: unknown, scope: FileLinkScope) => void revoked.push(scope)) };
  const tx = { manager: {} as never, emit: ((d: { routingKey: string }, p: unknown) => emitted.push([d.routingKey, p])) as never };
  const steps = new WebhookAccessSteps(repo as unknown as WebhookRepository, audit as unknown as AuditRepository, createLogger('test', 'silent'), rooms as unknown as RoomRepository);
  return { steps, repo, tx, disabled, emitted, lines, revoked };
};

describe('WebhookAccessSteps: what losing access to a room does to webhooks', () => {
  it('disables those whose creator may no longer read their room, with one registrations notice per room', async () => {
    const { steps, repo, tx, disabled, emitted, lines, revoked } = make([
      standing(1, 10, 'private', false), standing(2, 10, 'private', true), standing(3, 11, 'public', false, true), standing(4, 11, 'public', false),
      standing(5, 10, 'private', false),
    ]);
    expect(await steps.disableOfLostAccess(tx, { userId: 7 })).toEqual([1, 5, 3]);
    expect(repo.creatorStandings).toHaveBeenCalledWith(tx.manager, { userId: 7 });
    expect(disabled).toEqual([[1, 'creator_lost_access'], [3, 'creator_lost_access'], [5, 'creator_lost_access']]);
    expect(emitted).toEqual([
      [WebhookRegistrationsChangedV1.routingKey, { roomId: 10, webhookIds: [1, 5] }],
      [WebhookRegistrationsChangedV1.routingKey, { roomId: 11, webhookIds: [3] }],
    ]);
    // Each with its audit line: the service's doing, the reason, the URL masked as a bridge's.
    expect(lines).toHaveLength(3);
    expect(lines[0]).toEqual({ actor: undefined, line: { action: 'webhook.disabled', target: { type: 'webhook', id: 1, name: 'https://hooks.example.com/***?token=***' }, details: { roomId: 10, reason: 'creator_lost_access', creator: { id: 7 } } } });
    // Their receivers' signed file links of those rooms die, in one statement.
    expect(revoked).toEqual([{ roomIds: [10, 11] }]);
  });

  it('refuses to enable a webhook again while its creator may not read the room; lets it be enabled once they may', async () => {
    await expect(make([], { roomId: 10, enabled: false, creator: standing(4, 10, 'private', false) }).steps.assertCreatorMayRead({} as never, 10, 4))
      .rejects.toMatchObject({ error: { code: 'invalid', field: 'webhook', detail: { problem: expect.stringMatching(/^cannot be enabled while its creator \(user 7\) may not read room 10/) } } });
    await expect(make([], { roomId: 10, enabled: false, creator: standing(4, 10, 'private', true) }).steps.assertCreatorMayRead({} as never, 10, 4)).resolves.toBeUndefined();
    await expect(make([], { roomId: 10, enabled: false, creator: null }).steps.assertCreatorMayRead({} as never, 10, 4)).resolves.toBeUndefined();
  });

  it('emits nothing when nobody lost access', async () => {
    const { steps, tx, emitted, revoked } = make([standing(2, 10, 'private', true)]);
    expect(await steps.disableOfLostAccess(tx, { roomId: 10 })).toEqual([]);
    expect(emitted).toEqual([]);
    expect(revoked).toEqual([]);
  });

  it('refuses a reply of a webhook that is gone, disabled, or whose creator is out; lets the others through', async () => {
    await expect(make([]).steps.assertMayReply({} as never, 10, 4)).rejects.toMatchObject({ error: { code: 'forbidden', reason: 'not_allowed', field: 'causedBy' } });
    await expect(make([], { roomId: 10, enabled: false, creator: null }).steps.assertMayReply({} as never, 10, 4)).rejects.toMatchObject({ error: { code: 'forbidden' } });
    await expect(make([], { roomId: 10, enabled: true, creator: standing(4, 10, 'private', false) }).steps.assertMayReply({} as never, 10, 4))
      .rejects.toMatchObject({ error: { detail: { message: expect.stringContaining('may no longer read this room') } } });
    await expect(make([], { roomId: 10, enabled: true, creator: standing(4, 10, 'private', true) }).steps.assertMayReply({} as never, 10, 4)).resolves.toBeUndefined();
  });
});
