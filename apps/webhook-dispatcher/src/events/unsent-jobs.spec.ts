import { DeliveryJob, deliveryIdOf } from '../delivery/delivery-job';
import { unsentJobs } from './unsent-jobs';

const job = (webhookId: number): DeliveryJob => ({
  deliveryId: deliveryIdOf('event-1', webhookId), webhookId, event: 'room_notification', eventId: 'event-1', roomId: 3, attempt: 1,
  envelopeBody: '{}', createdAt: '2026-01-01T00:00:00.000Z', replyDepth: 1, actorUserId: null, registrationsVersion: null,
});

describe('unsentJobs', () => {
  const [fresh, waiting, attempted] = [job(1), job(2), job(3)];

  it('sends a new delivery as a plain first attempt', () => {
    expect(unsentJobs([fresh], new Set([fresh.deliveryId]), new Set())).toEqual([fresh]);
  });

  it('sends a delivery seen before and not yet attempted as a guard copy, and none already attempted', () => {
    const sent = unsentJobs([fresh, waiting, attempted], new Set([fresh.deliveryId]), new Set([waiting.deliveryId]));
    expect(sent).toEqual([fresh, { ...waiting, guard: true }]);
  });
});
