import { RpcCommandError, RpcFailure } from '@app/common';
import { WebhookRegistration } from '@app/contracts';
import { DeliveryJob, deliveryIdOf } from '../delivery/delivery-job';
import { ReplyPoster, replyCommand } from './reply-poster';

const registration = (over: Partial<WebhookRegistration> = {}): WebhookRegistration => ({
  id: 7, roomId: 3, event: 'room_message', url: 'https://receiver.example/hook', pattern: null, name: 'Echo bot',
  authentication: 'none', delivery: 'concurrent', key: null, installationId: null, oauthClientId: null, created: '2026-01-01T00:00:00Z',
  secret: 'secret-1', userId: 5, ...over,
});
const job: DeliveryJob = {
  deliveryId: deliveryIdOf('event-1', 7), webhookId: 7, event: 'room_message', eventId: 'event-1', roomId: 3, attempt: 1,
  envelopeBody: '{}', createdAt: '2026-01-01T00:00:00.000Z', replyDepth: 2, actorUserId: null, registrationsVersion: null,
};

describe('replyCommand', () => {
  it('posts in the event\'s room as the webhook, with HipChat\'s defaults and causedBy', () => {
    expect(replyCommand({ job, registration: registration(), notification: { message: 'pong' } })).toEqual({
      actor: { label: 'Echo bot', roomId: 3 },
      room: { id: 3 },
      message: 'pong',
      messageFormat: 'html',
      notify: false,
      color: 'yellow',
      from: 'Echo bot',
      causedBy: { webhookId: 7, deliveryId: job.deliveryId, depth: 2 },
    });
  });

  it('posts an add-on\'s reply under the add-on\'s name, not its webhook\'s (frameworks name webhooks with hashes)', () => {
    const addonHook = registration({ name: '5405ff8dcfa9b4054ea9a0d2aecd189cd08030d6', installationId: 2, oauthClientId: 'c-1', addonName: 'Greeter' });
    expect(replyCommand({ job, registration: addonHook, notification: { message: 'hi' } })).toMatchObject({
      actor: { label: 'Greeter', roomId: 3 }, from: 'Greeter',
    });
  });

  it('keeps the reply\'s own from and fields; a webhook without a name is "webhook"', () => {
    const command = replyCommand({
      job, registration: registration({ name: '' }),
      notification: { message: 'hi', from: 'Build', color: 'red', notify: true, message_format: 'text' },
    });
    expect(command).toMatchObject({ actor: { label: 'webhook' }, from: 'Build', color: 'red', notify: true, messageFormat: 'text' });
    expect(replyCommand({ job, registration: registration({ name: '' }), notification: { message: 'hi' } })).not.toHaveProperty('from');
    expect(replyCommand({ job, registration: registration({ name: 'n'.repeat(100) }), notification: { message: 'hi' } })!.from).toHaveLength(64);
  });

  it('has nothing to post for an event without a room', () => {
    expect(replyCommand({ job: { ...job, roomId: null }, registration: registration(), notification: { message: 'x' } })).toBeNull();
  });
});

describe('ReplyPoster', () => {
  it('answers the posted message id, or why the rooms service did not post it', async () => {
    const ok = new ReplyPoster(async () => ({ messageId: 'm1' }));
    await expect(ok.post({ job, registration: registration(), notification: { message: 'x' } })).resolves.toEqual({ messageId: 'm1' });
    const archived = new ReplyPoster(async () => {
      throw new RpcCommandError({ code: 'invalid', reason: 'room_archived' } as never);
    });
    await expect(archived.post({ job, registration: registration(), notification: { message: 'x' } }))
      .resolves.toEqual({ error: 'The rooms service refused the reply: invalid (room_archived).' });
    const lost = new ReplyPoster(async () => {
      throw new RpcCommandError({ code: 'forbidden', reason: 'not_allowed', field: 'causedBy', detail: { message: 'The creator of webhook 4 may no longer read this room: its reply is not posted.' } });
    });
    await expect(lost.post({ job, registration: registration(), notification: { message: 'x' } })).resolves.toEqual({
      error: 'The rooms service refused the reply: forbidden (not_allowed, causedBy). The creator of webhook 4 may no longer read this room: its reply is not posted.',
    });
    const down = new ReplyPoster(async () => {
      throw new RpcFailure('no_answer', 'no answer within 10000 ms');
    });
    await expect(down.post({ job, registration: registration(), notification: { message: 'x' } }))
      .resolves.toEqual({ error: 'The reply could not be posted: no answer within 10000 ms.' });
  });
});
