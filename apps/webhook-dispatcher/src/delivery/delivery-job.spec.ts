import { deliveryIdOf, deliveryJobSchema, uuidV5 } from './delivery-job';

const DNS = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

describe('delivery ids', () => {
  it('are UUID v5 (RFC 9562 test vector)', () => {
    expect(uuidV5('www.example.com', DNS)).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
    expect(uuidV5('hello', DNS)).toBe('9342d47a-1bab-5709-9869-c840b2eac501');
  });

  it('are the same for the same event and webhook, and differ otherwise', () => {
    const id = deliveryIdOf('7d6c1f3e-0000-4000-8000-000000000001', 42);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deliveryIdOf('7d6c1f3e-0000-4000-8000-000000000001', 42)).toBe(id);
    expect(deliveryIdOf('7d6c1f3e-0000-4000-8000-000000000001', 43)).not.toBe(id);
    expect(deliveryIdOf('7d6c1f3e-0000-4000-8000-000000000002', 42)).not.toBe(id);
  });
});

describe('deliveryJobSchema', () => {
  const job = {
    deliveryId: deliveryIdOf('e', 1), webhookId: 1, event: 'room_message', eventId: 'e', roomId: 3, attempt: 1,
    envelopeBody: '{}', createdAt: '2026-01-01T00:00:00.000Z',
  };

  it('reads a job, a reply depth of 1 by default', () => {
    expect(deliveryJobSchema.parse(job)).toEqual({ ...job, replyDepth: 1, actorUserId: null, registrationsVersion: null });
    expect(deliveryJobSchema.parse({ ...job, roomId: null, replyDepth: 2 })).toMatchObject({ roomId: null, replyDepth: 2 });
  });

  it('refuses what is not a job', () => {
    expect(deliveryJobSchema.safeParse({ ...job, attempt: 0 }).success).toBe(false);
    expect(deliveryJobSchema.safeParse({ ...job, deliveryId: 'x' }).success).toBe(false);
    expect(deliveryJobSchema.safeParse({ ...job, webhookId: '1' }).success).toBe(false);
  });
});
