import * as commands from './index';
import type { CommandDefinition } from './define-command';

const definitions = Object.values(commands as Record<string, unknown>).filter((v): v is CommandDefinition<unknown, unknown> =>
  typeof v === 'object' && v !== null && typeof (v as { pattern?: unknown }).pattern === 'string' && 'schema' in v);

describe('defineCommand', () => {
  it('marks exactly the commands that only read as queries (a caller may retry them blindly)', () => {
    expect(definitions.filter((c) => c.query).map((c) => c.pattern).sort()).toEqual([
      'addons.get-addon.v1', 'addons.list-addons.v1',
      'audit.list-audit.v1',
      'bridges.get-bridge.v1', 'bridges.list-bridges.v1',
      'chats.list-chats.v1',
      'deliveries.get-delivery.v1', 'deliveries.list-deliveries.v1',
      'rooms.get-file-access.v1', 'rooms.get-history.v2', 'rooms.get-message.v1', 'rooms.get-room-statistics.v1', 'rooms.get-room.v1', 'rooms.list-members.v1', 'rooms.list-participants.v1', 'rooms.list-removed-files.v1', 'rooms.list-rooms.v1', 'rooms.room-events.v1',
      'tokens.list-user-tokens.v1', 'tokens.resolve-token.v1',
      'users.get-private-history.v1', 'users.get-user.v1', 'users.list-users.v1',
      'webhooks.get-webhook.v1', 'webhooks.list-all-webhooks.v1', 'webhooks.list-registration-changes.v1', 'webhooks.list-registrations.v1', 'webhooks.list-webhooks.v1',
    ]);
  });

  it('takes every other command to change state', () => {
    const changes = definitions.filter((c) => !c.query);
    expect(changes.map((c) => c.pattern)).toEqual(expect.arrayContaining([
      'rooms.send-notification.v1', 'rooms.set-topic.v1', 'users.create-user.v1', 'deliveries.redeliver.v1', 'deliveries.recover-deliveries.v1',
      // A sign-in writes a session: not to be retried blindly.
      'users.sign-in.v1', 'users.sign-out.v1', 'tokens.create-user-token.v1', 'tokens.revoke-user-token.v1',
      // What was read is written (a marker moves forward): a change, though retrying it is harmless.
      'chats.mark-room-read.v1', 'chats.mark-private-chat-read.v1',
    ]));
    for (const c of changes) expect(c.query).toBe(false);
  });
});
