import type { RoomEntity } from '../database/entities';
import { roomRefParam, roomRefWhere, standingFromRow, standingParams, webhookViewerParams } from './room-access.sql';

const room = { ownerUserId: 40 } as RoomEntity;

describe('the access model in SQL', () => {
  it('names a room by id or, case-insensitively, by name, with typed placeholders', () => {
    expect(roomRefWhere('r', { id: 5 }, '$1')).toBe('r.id = $1::int');
    expect(roomRefWhere('r', { name: 'Ops' }, '$2')).toBe('lower(r.name) = lower($2::text)');
    expect([roomRefParam({ id: 5 }), roomRefParam({ name: 'Ops' })]).toEqual([5, 'Ops']);
  });

  it('reads the standing back as room-access.ts builds it: none without a user, the owner judged by the room', () => {
    expect(standingParams({ userId: 40, tokenId: 9 })).toEqual([40, 9]);
    expect(standingParams({})).toEqual([null, null]);
    const row = { actor__is_group_admin: false, actor__is_member: null, actor__addon: null };
    expect(standingFromRow({ userId: 40 }, room, row)).toEqual({
      standing: { userId: 40, isGroupAdmin: false, isMember: false, isOwner: true }, addOn: null,
    });
    expect(standingFromRow({}, room, { ...row, actor__addon: 'client-a' })).toEqual({ standing: null, addOn: 'client-a' });
  });

  it('gives the webhook rule whether the viewer administers the room, and who they are', () => {
    const s = (over: object) => ({ userId: 7, isGroupAdmin: false, isMember: true, isOwner: false, ...over });
    expect(webhookViewerParams({ standing: s({}), addOn: null })).toEqual([false, 7, null]);
    expect(webhookViewerParams({ standing: s({ isOwner: true }), addOn: null })).toEqual([true, 7, null]);
    expect(webhookViewerParams({ standing: s({ isGroupAdmin: true }), addOn: null })).toEqual([true, 7, null]);
    expect(webhookViewerParams({ standing: null, addOn: 'client-a' })).toEqual([false, null, 'client-a']);
  });
});
