import { randomBytes } from 'node:crypto';
import { SecretBox, secretPurpose } from '@app/common';
import type { WebhookRegistration } from '@app/contracts';
import { accessTokenOf, BridgeRegistration, bridgeMessageBody, bridgePosts, bridgeRequest, bridgeSecrets, shownBridgeRequest } from './bridge-delivery';

const box = new SecretBox([{ id: 'k1', key: randomBytes(32) }]);
const room = { id: 3, name: 'Ops' };
const bridge = (kind: 'slack' | 'matrix', over: Partial<WebhookRegistration> = {}): BridgeRegistration => ({
  id: 11, roomId: 3, event: 'room_message', url: 'https://hooks.slack.com/services/T0AB/B0CD/S3cretPathToken', pattern: null, name: '',
  authentication: 'none', delivery: 'ordered', key: null, installationId: null, oauthClientId: null, created: '2026-01-01T00:00:00Z',
  secret: 'sealed-unused', userId: 5,
  bridge: { kind, events: ['room_message'], matrixRoomId: kind === 'matrix' ? '!ops:example.org' : null, matrixAccessToken: null },
  ...over,
} as BridgeRegistration);

describe('bridgeMessageBody', () => {
  it('is the event\'s BridgeMessage, built from its item, the v2 card taken from the payload', () => {
    const body = JSON.parse(bridgeMessageBody({
      event: 'room_notification', deliveryId: 'd1',
      payload: { room, notify: false, card: { style: 'application', title: 'Deploy' }, message: { from: 'CD', message: 'done', message_format: 'text', color: 'red' } },
    }));
    expect(body).toMatchObject({ event: 'room_notification', deliveryId: 'd1', roomName: 'Ops', sender: 'CD', color: 'red', card: { title: 'Deploy' } });
  });

  it('throws for an event whose item is not an object, as the HipChat envelope does', () => {
    expect(() => bridgeMessageBody({ event: 'room_message', deliveryId: 'd1', payload: [] })).toThrow('not an object');
  });
});

describe('bridgeRequest', () => {
  const body = bridgeMessageBody({ event: 'room_message', deliveryId: 'd1', payload: { room, message: { from: { id: 1, name: 'Ada' }, message: 'hi' } } });

  it('POSTs the post\'s JSON to the bridge\'s URL, without Authorization', () => {
    const [post] = bridgePosts(bridge('slack').bridge, [body]);
    const request = bridgeRequest('https://hooks.slack.com/services/T/B/S', post, null);
    expect(request).toMatchObject({ method: 'POST', url: 'https://hooks.slack.com/services/T/B/S', body: JSON.stringify(post.body) });
    expect(request.headers).toMatchObject({ 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(request.body)) });
    expect(request.headers).not.toHaveProperty('Authorization');
  });

  it('PUTs a Matrix event under the homeserver\'s base URL with the bot\'s token, which the shown request leaves out', () => {
    const [post] = bridgePosts(bridge('matrix').bridge, [body]);
    const request = bridgeRequest('https://matrix.example.org/', post, 'syt_T0ken');
    expect(request.method).toBe('PUT');
    expect(request.url).toMatch(/^https:\/\/matrix\.example\.org\/_matrix\/client\/v3\/rooms\/.+\/send\/m\.room\.message\/.+$/);
    expect(request.headers.Authorization).toBe('Bearer syt_T0ken');
    expect(JSON.stringify(shownBridgeRequest(request))).not.toContain('syt_T0ken');
  });
});

describe('bridgeSecrets', () => {
  it('are the URL\'s path tokens and query values, and the access token; not the plain words of the path', () => {
    expect(bridgeSecrets('https://hooks.slack.com/services/T0AB/B0CD/S3cretPathToken', null)).toEqual(['T0AB', 'B0CD', 'S3cretPathToken']);
    expect(bridgeSecrets('https://discord.com/api/webhooks/1234567/tok-EN_9', null)).toEqual(['1234567', 'tok-EN_9']);
    expect(bridgeSecrets('https://chat.googleapis.com/v1/spaces/AAAA/messages?key=K3yValue&token=T0kValue', null)).toEqual(['AAAA', 'K3yValue', 'T0kValue']);
    expect(bridgeSecrets('https://matrix.example.org', 'syt_T0ken')).toEqual(['syt_T0ken']);
    expect(bridgeSecrets('not a url', null)).toEqual([]);
  });
});

describe('accessTokenOf', () => {
  it('opens a Matrix bridge\'s sealed token with its own purpose; none for the others', () => {
    const sealed = box.seal('syt_T0ken', secretPurpose.bridgeToken(11));
    const matrix = bridge('matrix', { url: 'https://matrix.example.org' });
    matrix.bridge.matrixAccessToken = sealed;
    expect(accessTokenOf(matrix, box)).toEqual({ token: 'syt_T0ken' });
    expect(accessTokenOf(bridge('slack'), box)).toEqual({ token: null });
  });

  it('says why, never the value, when it cannot be opened', () => {
    const matrix = bridge('matrix');
    matrix.bridge.matrixAccessToken = box.seal('syt_T0ken', secretPurpose.bridgeToken(12));
    const opened = accessTokenOf(matrix, box);
    expect(opened).toEqual({ problem: expect.stringContaining('cannot be decrypted') });
    expect(JSON.stringify(opened)).not.toContain('syt_T0ken');
    matrix.bridge.matrixAccessToken = null;
    expect(accessTokenOf(matrix, box)).toEqual({ problem: 'not sent: the Matrix bridge has no access token' });
  });

  it('posts nothing to a URL no key opened when the registrations were loaded', () => {
    const lost = new SecretBox([{ id: 'gone', key: randomBytes(32) }]).seal('https://hooks.slack.com/services/T/B/S', secretPurpose.webhookUrl(11));
    expect(accessTokenOf(bridge('slack', { url: lost }), box)).toEqual({ problem: expect.stringMatching(/^not sent: its URL cannot be decrypted/) });
  });
});
