import type { BridgeTarget } from '@app/contracts';
import type { DeliveryJob } from '../delivery/delivery-job';
import { bridgeMessageBody } from './bridge-delivery';
import { coalescedCount } from './bridge-pacer';
import { FORMATS } from './formats';

const slack: BridgeTarget = { kind: 'slack', events: ['room_notification'], matrixRoomId: null, matrixAccessToken: null };
const discord: BridgeTarget = { ...slack, kind: 'discord' };
const job = (n: number, text = `event ${n}`, partsDone?: number): DeliveryJob => ({
  deliveryId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, webhookId: 1, event: 'room_notification', eventId: `e${n}`, roomId: 3, attempt: 1,
  envelopeBody: bridgeMessageBody({ event: 'room_notification', deliveryId: `d${n}`, payload: { room: { id: 3, name: 'Ops' }, notify: false, message: { from: 'CI', message: text, message_format: 'text', color: 'green' } } }),
  createdAt: '2026-01-01T00:00:00.000Z', actorUserId: null, registrationsVersion: null, replyDepth: 1, ...(partsDone !== undefined ? { partsDone } : {}),
});
const bodies = (jobs: DeliveryJob[]) => jobs.map((j) => JSON.parse(j.envelopeBody));

describe('coalescedCount', () => {
  it('takes as many waiting deliveries as the platform\'s format makes one post of', () => {
    const waiting = Array.from({ length: 30 }, (_, i) => job(i + 1));
    const n = coalescedCount({ bridge: slack }, waiting);
    expect(n).toBeGreaterThan(1);
    expect(FORMATS.slack(bodies(waiting.slice(0, n)), { kind: 'slack', matrixRoomId: null })).toHaveLength(1);
    // Discord: one sender's same-coloured run is one embed, so all 30 make one post, within its 10 embeds.
    const d = coalescedCount({ bridge: discord }, waiting);
    const posts = FORMATS.discord(bodies(waiting.slice(0, d)), { kind: 'discord', matrixRoomId: null });
    expect(posts).toHaveLength(1);
    expect((posts[0].body.embeds as unknown[]).length).toBeLessThanOrEqual(10);
  });

  it('is 1 for a lone delivery, a webhook, or a head already partly posted; stops before one partly posted', () => {
    expect(coalescedCount({ bridge: slack }, [job(1)])).toBe(1);
    expect(coalescedCount({ bridge: null }, [job(1), job(2)])).toBe(1);
    expect(coalescedCount({ bridge: slack }, [job(1, 'x', 2), job(2)])).toBe(1);
    expect(coalescedCount({ bridge: slack }, [job(1), job(2), job(3, 'x', 1), job(4)])).toBe(2);
  });

  it('leaves a message too long for one post alone (its format splits it)', () => {
    expect(coalescedCount({ bridge: discord }, [job(1, 'y'.repeat(10_000)), job(2)])).toBe(1);
  });
});
