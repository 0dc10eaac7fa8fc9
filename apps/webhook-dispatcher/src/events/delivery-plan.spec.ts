import { compileWebhookPattern, EventEnvelope, RoomMessageSentV2, RoomNotificationSentV2, WebhookRegistration } from '@app/contracts';
import { deliveryIdOf } from '../delivery/delivery-job';
import { RegistrationIndex } from '../registrations/matching';
import { actingUserIdOf, planDeliveries } from './delivery-plan';

const registration = (over: Partial<WebhookRegistration>): WebhookRegistration => ({
  id: 1, roomId: 3, event: 'room_message', url: 'https://receiver.example/hook', pattern: null, name: '', authentication: 'none', delivery: 'concurrent',
  key: null, installationId: null, oauthClientId: null, created: '2026-01-01T00:00:00Z', secret: 'secret-1', userId: 5, ...over,
});
const room = { id: 3, name: 'Ops', privacy: 'public', is_archived: false, version: 'V1', links: { self: 'x' } };
const envelope = (type: string, payload: unknown): EventEnvelope =>
  ({ id: 'c0ffee00-0000-4000-8000-000000000001', type, version: 2, occurredAt: '2026-01-01T00:00:00Z', payload });
const now = new Date('2026-01-02T00:00:00.000Z');

const plan = (env: EventEnvelope, event: 'room_message' | 'room_notification', regs: WebhookRegistration[]) => {
  const index = new RegistrationIndex(regs);
  return planDeliveries({
    envelope: env, event, now,
    candidates: (roomId, name) => index.forEvent(roomId ?? 0, name),
    patterns: (source) => compileWebhookPattern(source),
  });
};

describe('planDeliveries', () => {
  const message = envelope(RoomMessageSentV2.type, { room, message: { id: 'm1', message: 'deploy now', type: 'message' } });

  it('makes one job per matching registration, its envelope serialized once, its id from event and webhook', () => {
    const jobs = plan(message, 'room_message', [
      registration({ id: 1 }),
      registration({ id: 2, pattern: '^deploy', oauthClientId: 'client-2' }),
      registration({ id: 3, pattern: '^rollback' }),
      registration({ id: 4, roomId: 4 }),
      registration({ id: 5, roomId: null, installationId: 1 }),
    ]);
    expect(jobs.map((j) => j.webhookId)).toEqual([1, 2, 5]);
    expect(jobs[1]).toEqual({
      deliveryId: deliveryIdOf(message.id, 2), webhookId: 2, event: 'room_message', eventId: message.id, roomId: 3, attempt: 1,
      envelopeBody: JSON.stringify({ event: 'room_message', item: message.payload, webhook_id: 2, oauth_client_id: 'client-2' }),
      createdAt: '2026-01-02T00:00:00.000Z', replyDepth: 1, actorUserId: null, registrationsVersion: null,
    });
  });

  it('skips the webhook a reply came from, and counts the depth of reply chains', () => {
    const reply = envelope(RoomNotificationSentV2.type, {
      room, notify: false, message: { id: 'n1', message: 'pong', type: 'notification' },
      causedBy: { webhookId: 1, deliveryId: 'd', depth: 1 },
    });
    const jobs = plan(reply, 'room_notification', [registration({ id: 1, event: 'room_notification' }), registration({ id: 2, event: 'room_notification' })]);
    expect(jobs.map((j) => [j.webhookId, j.replyDepth])).toEqual([[2, 2]]);
    expect(JSON.parse(jobs[0].envelopeBody).item).toEqual({ room, message: { id: 'n1', message: 'pong', type: 'notification' } });
  });

  it('gives a bridge its BridgeMessage, the notification\'s v2 card included, instead of the HipChat envelope', () => {
    const card = { style: 'application', id: 'c1', title: 'Build 12 passed', format: 'compact', attributes: [{ label: 'Branch', value: { label: 'main' } }] };
    const notification = envelope(RoomNotificationSentV2.type, {
      room, notify: false, card, message: { id: 'n1', from: 'CI', message: '<b>green</b>', message_format: 'html', color: 'green', type: 'notification' },
    });
    const bridge = registration({ id: 9, event: 'room_message', delivery: 'ordered', bridge: { kind: 'slack', events: ['room_message', 'room_notification'], matrixRoomId: null, matrixAccessToken: null } });
    const [job] = plan(notification, 'room_notification', [bridge]);
    expect(JSON.parse(job.envelopeBody)).toMatchObject({
      event: 'room_notification', deliveryId: job.deliveryId, roomName: 'Ops', sender: 'CI', notice: true, color: 'green',
      body: [{ t: 'paragraph', children: [{ t: 'bold', children: [{ t: 'text', text: 'green' }] }] }],
      card: { title: 'Build 12 passed', attributes: [{ label: 'Branch', value: 'main', url: null }] },
    });
  });

  it('throws for an event whose item is not an object (dead-lettered by the consumer)', () => {
    const groupWide = registration({ roomId: null, installationId: 1 });
    expect(() => plan(envelope(RoomMessageSentV2.type, []), 'room_message', [groupWide])).toThrow('not an object');
    expect(plan(envelope(RoomMessageSentV2.type, []), 'room_message', [registration({})])).toEqual([]);
  });
});

describe('actingUserIdOf', () => {
  const user = { id: 12, links: { self: 'x' }, mention_name: 'ann', name: 'Ann', version: 'V' };
  it('is the author of a message, or the sender when a user', () => {
    expect(actingUserIdOf({ room, message: { from: user } })).toBe(12);
    expect(actingUserIdOf({ room, sender: user, topic: 't' })).toBe(12);
    expect(actingUserIdOf({ room, sender: { id: 'client-1', links: { self: 'x' }, room: null } })).toBeNull();
    expect(actingUserIdOf({ room, sender: 'a label' })).toBeNull();
    expect(actingUserIdOf({ room, message: { from: 'Build bot' } })).toBeNull();
  });

  it('is the user whose personal token sent a notification', () => {
    expect(actingUserIdOf({ room, message: { from: 'Deploys' }, notify: false, actorUserId: 7 })).toBe(7);
    expect(actingUserIdOf({ room, message: { from: 'Deploys' }, notify: false, actorUserId: 0 })).toBeNull();
  });
});
