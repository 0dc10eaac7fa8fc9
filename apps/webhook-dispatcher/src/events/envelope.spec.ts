import { WEBHOOK_EVENT_NAMES, WebhookRegistration } from '@app/contracts';
import { buildEnvelope } from './envelope';

const registration = (over: Partial<WebhookRegistration> = {}): WebhookRegistration => ({
  id: 12, roomId: 7, event: 'room_notification', url: 'https://r.example/hook', pattern: null, name: 'hook',
  authentication: 'none', delivery: 'concurrent', key: null, installationId: null, oauthClientId: null, created: '2025-01-01T00:00:00.000Z',
  secret: 's', userId: 5, ...over,
});

const room = { id: 7, is_archived: false, links: { self: 's', participants: 'p', webhooks: 'w' }, name: 'Ops', privacy: 'public', version: 'v' };
const notification = {
  room,
  message: { color: 'green', date: 'd', from: 'Bot', id: 'n1', mentions: [], message: 'done', message_format: 'text', type: 'notification' },
  notify: true,
  causedBy: { webhookId: 3, deliveryId: 'd-1', depth: 1 },
  actorUserId: 9,
};

describe('buildEnvelope', () => {
  it('is {event, item, webhook_id} for a REST registration, the item built by the event source', () => {
    const envelope = buildEnvelope({ event: 'room_notification', payload: notification, registration: registration() });
    expect(envelope).toEqual({ event: 'room_notification', item: { room, message: notification.message }, webhook_id: 12 });
    expect(envelope).not.toHaveProperty('oauth_client_id');
    expect(Object.keys(envelope)).toEqual(['event', 'item', 'webhook_id']);
  });

  it('carries oauth_client_id as text for an add-on webhook', () => {
    const envelope = buildEnvelope({
      event: 'room_enter', payload: { room, sender: { id: 5 } }, registration: registration({ oauthClientId: '6a2c0f3e-client', installationId: 4 }),
    });
    expect(envelope).toEqual({ event: 'room_enter', item: { room, sender: { id: 5 } }, webhook_id: 12, oauth_client_id: '6a2c0f3e-client' });
    expect(typeof envelope.oauth_client_id).toBe('string');
    expect(typeof envelope.webhook_id).toBe('number');
  });

  it('leaves a notification\'s card out of the item: HipChat\'s webhook never sent it (only bridges show it)', () => {
    const card = { style: 'link', id: 'c1', title: 'Build 42', url: 'https://ci.example/42' };
    const envelope = buildEnvelope({ event: 'room_notification', payload: { ...notification, card }, registration: registration() });
    expect(JSON.stringify(envelope)).toBe(JSON.stringify(buildEnvelope({ event: 'room_notification', payload: notification, registration: registration() })));
  });

  it('leaves a bridged message\'s origin out of the item, and passes any other message through as it is', () => {
    const message = { room, message: { date: 'd', from: 'Grace Hopper (Mattermost)', id: 'm1', message: 'hi', type: 'message' } };
    const bridged = buildEnvelope({ event: 'room_message', payload: { ...message, origin: { bridgeId: 4 } }, registration: registration({ event: 'room_message' }) });
    expect(JSON.stringify(bridged.item)).toBe(JSON.stringify(message));
    expect(buildEnvelope({ event: 'room_message', payload: message, registration: registration({ event: 'room_message' }) }).item).toBe(message);
  });

  it('passes the payload of the other nine events through as the item', () => {
    for (const event of WEBHOOK_EVENT_NAMES.filter((e) => e !== 'room_notification')) {
      const payload = { room, sender: 'someone', topic: 't' };
      expect(buildEnvelope({ event, payload, registration: registration({ event }) }).item).toEqual(payload);
    }
  });

  it('refuses an event whose item is not an object', () => {
    expect(() => buildEnvelope({ event: 'room_message', payload: null, registration: registration() })).toThrow(TypeError);
    expect(() => buildEnvelope({ event: 'room_message', payload: [room], registration: registration() })).toThrow(/not an object/);
  });
});
