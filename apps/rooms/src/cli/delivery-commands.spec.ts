import { RpcCommandError, RpcFailure } from '@app/common';
import { CommandDefinition, commandFailure, DeliveryDetailView, DeliveryView } from '@app/contracts';
import {
  DeliveryCommands, deliveriesTable, deliveryText, describeDeliveryFailure, DeliveryUsageError, DispatcherCommandQueue, runDeliveryCommand, sinceOf,
  WebhookStateLookup,
} from './delivery-commands';

const QUEUE = 'chat.webhook-dispatcher.commands';
const ID = '6f1c2a4e-3b5d-5e7f-8a9b-0c1d2e3f4a5b';

/** A command queue that answers (or fails) as told, and records what was sent. */
function queue(
  answer: (pattern: string, payload: unknown) => unknown, served = true, registered?: (id: number) => Promise<boolean | undefined>, state?: WebhookStateLookup,
) {
  const sent: Array<{ pattern: string; payload: unknown }> = [];
  const dispatcher: DispatcherCommandQueue = {
    served: async () => served,
    request: async <Req, Rep>(command: CommandDefinition<Req, Rep>, payload: Req): Promise<Rep> => {
      sent.push({ pattern: command.pattern, payload });
      return answer(command.pattern, payload) as Rep;
    },
  };
  return { commands: new DeliveryCommands(dispatcher, QUEUE, registered, state), sent };
}

const item: DeliveryView = {
  id: ID, webhookId: 7, event: 'room_message', status: 'failed', created: '2026-01-01T00:00:00.000Z', attempts: 3, nextAttemptAt: null,
  lastAttempt: { attempt: 3, at: '2026-01-01T00:05:00.000Z', statusCode: 503, durationMs: 40, error: null },
};
const detail: DeliveryDetailView = {
  ...item,
  request: {
    url: 'https://r.example/hook?signed_request=eyJhbGci…',
    headers: { 'Content-Type': 'application/json', 'webhook-id': ID, 'webhook-signature': 'v1,AbCdEfGh…', Authorization: 'JWT eyJhbGci…' },
    body: '{"event":"room_message"}',
  },
  attemptLog: [
    { attempt: 1, at: '2026-01-01T00:00:00.100Z', statusCode: null, durationMs: 10_000, error: 'timeout: no answer within 10000 ms', responseHeaders: null, responseBody: null },
    { attempt: 2, at: '2026-01-01T00:00:15.000Z', statusCode: 503, durationMs: 40, error: null, responseHeaders: { 'content-type': 'text/plain' }, responseBody: 'down\nfor now' },
  ],
  reply: { messageId: null, error: null },
};

describe('DeliveryCommands', () => {
  it('sends the dispatcher its commands, with no actor: list, show, redeliver, recover', async () => {
    const { commands, sent } = queue((pattern) => ({
      'deliveries.list-deliveries.v1': { deliveries: [{ ...item, position: { createdAt: '2026-01-01T00:00:00.000000Z', id: ID } }] },
      'deliveries.get-delivery.v1': { delivery: detail },
      'deliveries.redeliver.v1': { deliveryId: ID, attempt: 4 },
      'deliveries.recover-deliveries.v1': { count: 12 },
    })[pattern]);
    // Shown (and --json) without the item's position, which only a next page would need.
    expect(await commands.list(7, { status: 'failed', limit: 10 })).toStrictEqual([item]);
    await commands.list(7);
    expect(await commands.show(ID)).toEqual(detail);
    expect(await commands.redeliver(ID)).toEqual({ deliveryId: ID, attempt: 4 });
    expect(await commands.recover(7, '2026-01-01T00:00:00.000Z')).toBe(12);
    expect(sent).toEqual([
      { pattern: 'deliveries.list-deliveries.v1', payload: { webhookId: 7, startIndex: 0, limit: 10, status: 'failed' } },
      { pattern: 'deliveries.list-deliveries.v1', payload: { webhookId: 7, startIndex: 0, limit: 50 } },
      { pattern: 'deliveries.get-delivery.v1', payload: { delivery: ID } },
      // Redeliver reads the delivery first: whether its webhook is enabled is the rooms service's to say.
      { pattern: 'deliveries.get-delivery.v1', payload: { delivery: ID } },
      { pattern: 'deliveries.redeliver.v1', payload: { delivery: ID } },
      { pattern: 'deliveries.recover-deliveries.v1', payload: { webhookId: 7, since: '2026-01-01T00:00:00.000Z' } },
    ]);
  });

  it('refuses to redeliver or recover for a disabled webhook, before anything is queued', async () => {
    const answers = (pattern: string) => ({ 'deliveries.get-delivery.v1': { delivery: detail }, 'deliveries.redeliver.v1': { deliveryId: ID, attempt: 4 } })[pattern];
    const reason = 'every delivery attempt since 2026-01-01T00:00:00.000Z has failed (3 failures over 2s; last error: HTTP 503)';
    const asked: number[] = [];
    const disabled = queue(answers, true, undefined, async (id) => {
      asked.push(id);
      return { id, enabled: false, disabledReason: reason };
    });
    await expect(disabled.commands.redeliver(ID)).rejects.toThrow(
      new Error(`Webhook 7 is disabled (${reason}): enable it first (cli webhook enable 7), then redeliver.`));
    await expect(disabled.commands.recover(7, '2026-01-01T00:00:00.000Z')).rejects.toThrow(
      new Error(`Webhook 7 is disabled (${reason}): enable it first (cli webhook enable 7), then recover.`));
    expect(asked).toEqual([7, 7]);
    expect(disabled.sent.map((s) => s.pattern)).toEqual(['deliveries.get-delivery.v1']);
    // Enabled, or the rooms service unable to tell: it goes.
    const enabled = queue(answers, true, undefined, async (id) => ({ id, enabled: true, disabledReason: null }));
    expect(await enabled.commands.redeliver(ID)).toEqual({ deliveryId: ID, attempt: 4 });
    const unknown = queue(answers, true, undefined, async () => { throw new Error('rooms down'); });
    expect(await unknown.commands.redeliver(ID)).toEqual({ deliveryId: ID, attempt: 4 });
  });

  it('says a webhook id is unknown when its log is empty and no such webhook is registered', async () => {
    const asked: number[] = [];
    const lookup = (known: boolean | undefined) => async (id: number) => {
      asked.push(id);
      return known;
    };
    const empty = (pattern: string) => (pattern === 'deliveries.list-deliveries.v1' ? { deliveries: [] } : { count: 0 });
    const unknown = /^no webhook 999: none is registered with that id, and no deliveries of one are recorded/;
    await expect(queue(empty, true, lookup(false)).commands.list(999)).rejects.toThrow(unknown);
    await expect(queue(empty, true, lookup(false)).commands.recover(999, '2026-01-01T00:00:00.000Z')).rejects.toThrow(unknown);
    // Registered (or the rooms service cannot tell): an empty log is an empty log.
    expect(await queue(empty, true, lookup(true)).commands.list(7)).toEqual([]);
    expect(await queue(empty, true, lookup(undefined)).commands.recover(7, '2026-01-01T00:00:00.000Z')).toBe(0);
    expect(await queue(empty, true, async () => { throw new Error('broker gone'); }).commands.list(7)).toEqual([]);
    // A log with something in it (a deleted webhook's, say) is shown without asking.
    asked.length = 0;
    expect(await queue(() => ({ deliveries: [item] }), true, lookup(false)).commands.list(7)).toEqual([item]);
    expect(await queue(() => ({ count: 2 }), true, lookup(false)).commands.recover(7, '2026-01-01T00:00:00.000Z')).toBe(2);
    expect(asked).toEqual([]);
  });

  it('refuses an unknown --status before sending anything', async () => {
    const { commands, sent } = queue(() => ({ deliveries: [] }));
    await expect(commands.list(7, { status: 'lost' })).rejects.toThrow('--status: must be one of pending, retrying, delivered, failed, cancelled');
    expect(sent).toEqual([]);
  });

  it('says the webhook dispatcher is not running when nothing consumes its queue, and sends nothing', async () => {
    const { commands, sent } = queue(() => ({}), false);
    await expect(commands.redeliver(ID)).rejects.toThrow(
      new Error('the webhook dispatcher is not running (no answer on chat.webhook-dispatcher.commands); start it with npm start'));
    expect(sent).toEqual([]);
  });

  it('says what an unanswered command may have done, and that one not sent did nothing', async () => {
    const noAnswer = queue(() => { throw new RpcFailure('no_answer', 'no answer to deliveries.recover-deliveries.v1 within 10000 ms'); });
    await expect(noAnswer.commands.recover(7, '2026-01-01T00:00:00Z')).rejects.toThrow(new Error(
      'no answer from the webhook dispatcher on chat.webhook-dispatcher.commands (no answer to deliveries.recover-deliveries.v1 within 10000 ms): '
      + 'the outcome is unknown, deliveries may have been queued again; see cli webhook deliveries'));
    await expect(noAnswer.commands.show(ID)).rejects.toThrow(/^no answer from the webhook dispatcher on chat\.webhook-dispatcher\.commands \([^)]*\)$/);
    const notSent = queue(() => { throw new RpcFailure('not_sent', 'the message broker is unreachable'); });
    await expect(notSent.commands.redeliver(ID)).rejects.toThrow(
      new Error('the webhook dispatcher was not reached (the message broker is unreachable); nothing was changed'));
  });

  it('words the dispatcher\'s refusals for the terminal', async () => {
    const { commands } = queue(() => { throw new RpcCommandError(commandFailure('not_found', 'delivery_not_found', 'delivery', { ref: ID }).error); });
    await expect(commands.show(ID)).rejects.toThrow(new Error(`no delivery ${ID}`));
    expect(describeDeliveryFailure(commandFailure('invalid', 'rule', 'since', { problem: 'must not be in the future' }).error, 7))
      .toBe('--since: must not be in the future');
    expect(describeDeliveryFailure(commandFailure('unavailable', 'dependency_failed').error, 7)).toMatch(/nothing was changed$/);
  });
});

describe('sinceOf', () => {
  const now = new Date('2026-03-01T12:00:00.000Z');
  it('reads a time ago, or an ISO 8601 time as it is', () => {
    expect(sinceOf('30m', now)).toBe('2026-03-01T11:30:00.000Z');
    expect(sinceOf('2h', now)).toBe('2026-03-01T10:00:00.000Z');
    expect(sinceOf('3d', now)).toBe('2026-02-26T12:00:00.000Z');
    expect(sinceOf('2026-02-01T00:00:00+01:00', now)).toBe('2026-02-01T00:00:00+01:00');
  });

  it('says what it takes otherwise', () => {
    expect(() => sinceOf('yesterday', now)).toThrow('--since: must be an ISO 8601 time (2025-03-01T12:00:00Z) or a time ago such as 30m, 2h or 3d (got "yesterday")');
    expect(() => sinceOf('2026-02-01', now)).toThrow(/^--since: /);
  });

  it('refuses a time PostgreSQL cannot store, naming the rule, before asking the dispatcher', () => {
    expect(() => sinceOf('0000-01-01T00:00:00Z', now)).toThrow(new DeliveryUsageError('--since: must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z (got "0000-01-01T00:00:00Z")'));
    expect(() => sinceOf('2025-01-01T00:00:00+18:00', now)).toThrow('--since: must have a UTC offset from -15:59 to +15:59 (got "2025-01-01T00:00:00+18:00")');
    expect(() => sinceOf('999999d', new Date('2000-01-01T00:00:00Z'))).toThrow('--since: 999999d ago is before 0001-01-01T00:00:00Z');
    expect(sinceOf('2025-01-01T00:00:00-15:59', now)).toBe('2025-01-01T00:00:00-15:59');
  });
});

describe('what the commands print', () => {
  it('lists deliveries as an aligned table: id, event, status, attempts, last status or error, created', () => {
    const pending: DeliveryView = { ...item, id: 'b'.repeat(36), status: 'pending', attempts: 0, lastAttempt: null };
    const timedOut: DeliveryView = { ...item, lastAttempt: { ...item.lastAttempt!, statusCode: null, error: 'timeout: no answer within 10000 ms' } };
    expect(deliveriesTable([item, pending, timedOut]).split('\n')).toEqual([
      'ID                                    EVENT         STATUS   ATTEMPTS  LAST                                CREATED',
      `${ID}  room_message  failed   3         HTTP 503                            2026-01-01T00:00:00.000Z`,
      `${'b'.repeat(36)}  room_message  pending  0         -                                   2026-01-01T00:00:00.000Z`,
      `${ID}  room_message  failed   3         timeout: no answer within 10000 ms  2026-01-01T00:00:00.000Z`,
    ]);
    expect(deliveriesTable([])).toBe('ID  EVENT  STATUS  ATTEMPTS  LAST  CREATED');
  });

  it('shows one delivery for a person to read: what it is, the request, each attempt and its answer', () => {
    expect(deliveryText(detail)).toBe([
      `delivery  ${ID}  (the webhook-id header its receiver got)`,
      'webhook   7',
      'event     room_message',
      'status    failed, 3 attempts',
      'created   2026-01-01T00:00:00.000Z',
      'reply     -',
      '',
      'POST https://r.example/hook?signed_request=***',
      'Content-Type: application/json',
      `webhook-id: ${ID}`,
      'webhook-signature: v1,AbCdEfGh…',
      'Authorization: JWT eyJhbGci…',
      '',
      '{"event":"room_message"}',
      '',
      'attempt 1  2026-01-01T00:00:00.100Z  no answer  10000 ms',
      '  error: timeout: no answer within 10000 ms',
      '',
      'attempt 2  2026-01-01T00:00:15.000Z  HTTP 503  40 ms',
      '  content-type: text/plain',
      '  down',
      '  for now',
    ].join('\n'));
    expect(deliveryText({ ...detail, reply: { messageId: 'm-9', error: null } })).toContain('reply     posted as message m-9');
    expect(deliveryText({ ...detail, request: { url: null, headers: null, body: '{}' } })).toContain('POST (the webhook is gone');
  });
});

describe('runDeliveryCommand: arguments are checked before anything is connected', () => {
  const run = (action: Parameters<typeof runDeliveryCommand>[0], arg: string | undefined, o: Partial<Parameters<typeof runDeliveryCommand>[2]> = {}) =>
    runDeliveryCommand(action, arg, { json: false, ...o }, () => undefined);

  it.each<[string, () => Promise<number>, string]>([
    ['a webhook id that is not one', () => run('deliveries', 'seven'), 'webhook deliveries needs the numeric webhook id'],
    ['a delivery id that is not one', () => run('redeliver', '42'), 'webhook redeliver needs a delivery id (the UUID a receiver got as webhook-id)'],
    ['recover without --since', () => run('recover', '7'), 'webhook recover needs --since (an ISO 8601 time, or 30m, 2h, 3d ago)'],
    ['a bad --since', () => run('recover', '7', { since: 'soon' }), '--since: must be an ISO 8601 time'],
    ['a --limit out of range', () => run('deliveries', '7', { limit: '5000' }), '--limit: must be a whole number from 1 to 1000'],
  ])('%s', async (_what, attempt, message) => {
    await expect(attempt()).rejects.toThrow(message);
  });
});
