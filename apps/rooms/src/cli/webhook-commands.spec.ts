import { RpcCommandError, RpcFailure } from '@app/common';
import { CommandDefinition, commandFailure, NO_WEBHOOK_HEALTH, WebhookView } from '@app/contracts';
import { RoomsCommandQueue } from './addon-commands';
import { describeWebhookFailure, WebhookCommands, webhookTable } from './webhook-commands';

const QUEUE = 'chat.rooms.commands';

/** A command queue that answers (or fails) as told, and records what was sent. */
function queue(answer: (pattern: string, payload: unknown) => unknown, served = true) {
  const sent: Array<{ pattern: string; payload: unknown }> = [];
  const rooms: RoomsCommandQueue = {
    served: async () => served,
    request: async <Req, Rep>(command: CommandDefinition<Req, Rep>, payload: Req): Promise<Rep> => {
      sent.push({ pattern: command.pattern, payload });
      return answer(command.pattern, payload) as Rep;
    },
  };
  return { commands: new WebhookCommands(rooms, QUEUE), sent };
}

const view = (over: Partial<WebhookView> = {}): WebhookView => ({
  id: 12, roomId: 3, event: 'room_message', url: 'https://bot:pa55@bots.example.com/hook?token=abc', pattern: null, name: 'Deploy bot',
  authentication: 'jwt', delivery: 'concurrent', key: null, installationId: null, oauthClientId: null, created: '2025-01-01T00:00:00.000Z',
  enabled: true, disabledReason: null, disabledAt: null, health: { ...NO_WEBHOOK_HEALTH }, ...over,
});
const disabled = view({
  id: 13, roomId: null, name: '', enabled: false, url: 'http://addon.example.com/all',
  disabledReason: 'every delivery attempt since 2025-02-01T00:00:00.000Z has failed (20 failures over 5d; last error: HTTP 500)',
  health: { ...NO_WEBHOOK_HEALTH, consecutiveFailures: 20, failingSince: '2025-02-01T00:00:00.000Z', lastError: 'HTTP 500' },
});

describe('WebhookCommands', () => {
  it('lists every webhook, or one room\'s, as operator commands (no actor)', async () => {
    const { commands, sent } = queue(() => ({ webhooks: [view(), disabled] }));
    const lines = await commands.list();
    await commands.list('Ops');
    await commands.list('7');
    expect(sent).toEqual([
      { pattern: 'webhooks.list-all-webhooks.v1', payload: {} },
      { pattern: 'webhooks.list-all-webhooks.v1', payload: { room: { name: 'Ops' } } },
      { pattern: 'webhooks.list-all-webhooks.v1', payload: { room: { id: 7 } } },
    ]);
    expect(lines[0]).toEqual({
      id: 12, room: 3, name: 'Deploy bot', event: 'room_message', url: 'https://bots.example.com/hook?token=***', enabled: true,
      consecutiveFailures: 0, failingSince: null, disabledReason: null,
    });
  });

  it('prints a table: id, room, name, event, URL masked (no credentials, each value of its query ***), enabled, failures, failing since, reason', async () => {
    const { commands } = queue(() => ({ webhooks: [view(), disabled] }));
    const table = webhookTable(await commands.list());
    expect(table.split('\n')).toEqual([
      'ID\tROOM\tNAME\tEVENT\tURL\tENABLED\tFAILURES\tFAILING_SINCE\tDISABLED_REASON',
      '12\t3\tDeploy bot\troom_message\thttps://bots.example.com/hook?token=***\tyes\t0\t-\t-',
      `13\tgroup\t-\troom_message\thttp://addon.example.com/all\tno\t20\t2025-02-01T00:00:00.000Z\t${disabled.disabledReason}`,
      '',
    ]);
    expect(table).not.toMatch(/pa55|token=(?!\*\*\*)|abc/);
  });

  it('tells whether a webhook id is registered, and undefined when the rooms service cannot say', async () => {
    const { commands, sent } = queue(() => ({ webhooks: [view(), disabled] }));
    expect(await commands.isRegistered(13)).toBe(true);
    expect(await commands.isRegistered(14)).toBe(false);
    // Only the one asked for; an older rooms service that answers every webhook is read the same way.
    expect(sent).toEqual([{ pattern: 'webhooks.list-all-webhooks.v1', payload: { id: 13 } }, { pattern: 'webhooks.list-all-webhooks.v1', payload: { id: 14 } }]);
    expect(await queue(() => ({ webhooks: [] }), false).commands.isRegistered(12)).toBeUndefined();
    expect(await queue(() => { throw new RpcFailure('no_answer', 'no answer within 10000 ms'); }).commands.isRegistered(12)).toBeUndefined();
  });

  it('enables a webhook by id, any webhook (group-wide too)', async () => {
    const { commands, sent } = queue(() => ({ webhook: disabled }));
    expect(await commands.enable(13)).toMatchObject({ id: 13, room: null });
    expect(sent).toEqual([{ pattern: 'webhooks.enable-webhook.v1', payload: { operator: true, webhook: { id: 13 } } }]);
  });

  it('says the rooms service is not running when nothing consumes its queue, and sends nothing', async () => {
    const { commands, sent } = queue(() => ({}), false);
    await expect(commands.enable(1)).rejects.toThrow(
      new Error('the rooms service is not running (no answer on chat.rooms.commands); start it with npm start'));
    await expect(commands.list()).rejects.toThrow('the rooms service is not running');
    expect(sent).toEqual([]);
  });

  it('says an enable sent but not answered may have been applied, and where to look', async () => {
    const { commands } = queue(() => { throw new RpcFailure('no_answer', 'no answer to webhooks.enable-webhook.v1 within 10000 ms'); });
    await expect(commands.enable(4)).rejects.toThrow(new Error('no answer from the rooms service on chat.rooms.commands '
      + '(no answer to webhooks.enable-webhook.v1 within 10000 ms): the outcome is unknown, the webhook may have been enabled; see cli webhook list'));
  });

  it('words refusals with what the user typed', async () => {
    const { commands } = queue(() => { throw new RpcCommandError(commandFailure('not_found', 'webhook_not_found', 'webhook', { ref: '99' }).error); });
    await expect(commands.enable(99)).rejects.toThrow(new Error('no webhook 99'));
    expect(describeWebhookFailure(commandFailure('not_found', 'room_not_found', 'room', { ref: 'Ops' }).error, { room: 'Ops' })).toBe('--room: no room Ops');
    expect(describeWebhookFailure(commandFailure('invalid', 'rule', 'room', { problem: 'Invalid input' }).error, { room: 'x'.repeat(101) }))
      .toBe('--room: Invalid input');
  });
});
