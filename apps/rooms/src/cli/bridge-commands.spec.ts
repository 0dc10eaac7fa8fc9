import { RpcCommandError, RpcFailure } from '@app/common';
import { BridgeView, CommandDefinition, commandFailure, DeliveryView } from '@app/contracts';
import { BridgeCommands, bridgeSpecOfInput, bridgeTable, bridgeTestText, describeBridgeFailure } from './bridge-commands';

describe('cli bridge', () => {
  it('sends what was typed as the API\'s request, the secrets from the environment', () => {
    expect(bridgeSpecOfInput({ room: 'Ops', kind: 'slack', url: 'https://hooks.slack.com/services/x', inbound: false })).toEqual({ kind: 'slack', url: 'https://hooks.slack.com/services/x' });
    expect(bridgeSpecOfInput({
      room: 'Ops', kind: 'matrix', url: 'https://m.example.org', name: 'Ops', events: 'room_message, room_enter', pattern: 'deploy',
      matrixRoom: '!a:m.example.org', matrixToken: 'syt_x', inbound: false,
    })).toEqual({
      kind: 'matrix', url: 'https://m.example.org', name: 'Ops', events: ['room_message', 'room_enter'], pattern: 'deploy',
      matrix: { room_id: '!a:m.example.org', access_token: 'syt_x' },
    });
    expect(bridgeSpecOfInput({ room: 'Ops', kind: 'teams', url: 'https://t.example.com', inbound: true, inboundHmacSecret: 'c2VjcmV0' }))
      .toEqual({ kind: 'teams', url: 'https://t.example.com', inbound: { enabled: true, hmac_secret: 'c2VjcmV0' } });
  });

  it('words a refusal with the option or variable that set the field', () => {
    expect(describeBridgeFailure(commandFailure('invalid', 'rule', 'matrix.room_id', { problem: 'must be a Matrix room id' }).error)).toBe('--matrix-room: must be a Matrix room id');
    expect(describeBridgeFailure(commandFailure('invalid', 'rule', 'inbound.token', { problem: 'must be 1 to 256 characters' }).error)).toBe('BRIDGE_INBOUND_TOKEN: must be 1 to 256 characters');
    expect(describeBridgeFailure(commandFailure('not_found', 'bridge_not_found', 'bridge', { ref: '7' }).error, { room: 'Ops', id: 7 })).toBe('no bridge 7 in room Ops');
    expect(describeBridgeFailure(commandFailure('not_found', 'room_not_found', 'room', { ref: 'Nope' }).error)).toBe('--room: no room Nope');
  });

  it('prints a table without secrets', () => {
    expect(bridgeTable([{
      id: 3, room: 1, kind: 'slack', name: '', url: 'https://hooks.slack.com/services/x?token=***', events: ['room_message'], enabled: true,
      consecutiveFailures: 0, disabledReason: null, matrixRoom: null, inbound: false,
    }])).toBe('ID\tROOM\tKIND\tNAME\tURL\tEVENTS\tINBOUND\tENABLED\tFAILURES\tDISABLED_REASON\n'
      + '3\t1\tslack\t-\thttps://hooks.slack.com/services/x?token=***\troom_message\tno\tyes\t0\t-\n');
  });
});

describe('cli bridge enable|test|deliveries', () => {
  const view: BridgeView = {
    id: 7, roomId: 1, kind: 'slack', name: '', url: 'https://hooks.slack.com/services/***', events: ['room_message'], pattern: null,
    created: '2026-01-01T00:00:00.000Z', enabled: true, disabledReason: null, disabledAt: null,
    health: { lastSuccessAt: null, failingSince: null, consecutiveFailures: 0, lastFailureAt: null, lastError: null },
    matrix: null, inbound: { enabled: false, verifiedBy: null },
  };
  const delivery: DeliveryView = {
    id: '6f1c2a4e-3b5d-4e7f-8a9b-0c1d2e3f4a5b', webhookId: 7, event: 'room_message', status: 'delivered', created: '2026-01-01T00:00:00.000Z',
    attempts: 1, nextAttemptAt: null, lastAttempt: { attempt: 1, at: '2026-01-01T00:00:00.100Z', statusCode: 200, durationMs: 12, error: null },
  };

  /** A command queue answering as told, recording what was sent. */
  function queueOf(answer: (pattern: string) => unknown, served = true) {
    const sent: Array<{ pattern: string; payload: unknown }> = [];
    const queue = {
      served: async () => served,
      request: async <Req, Rep>(command: CommandDefinition<Req, Rep>, payload: Req): Promise<Rep> => {
        sent.push({ pattern: command.pattern, payload });
        const a = answer(command.pattern);
        if (a instanceof Error) throw a;
        return a as Rep;
      },
    };
    return { queue, sent };
  }
  const rooms = queueOf((p) => ({
    'bridges.get-bridge.v1': { bridge: view, roomName: 'Ops' },
    'bridges.enable-bridge.v1': { bridge: view },
  })[p]);

  it('enables as the operator, in the room given', async () => {
    const r = queueOf(() => ({ bridge: view }));
    const line = await new BridgeCommands(r.queue, 'rooms', 'https://chat.example').enable('Ops', 7);
    expect(line).toMatchObject({ id: 7, enabled: true });
    expect(r.sent).toEqual([{ pattern: 'bridges.enable-bridge.v1', payload: { actor: { label: 'cli' }, room: { name: 'Ops' }, id: 7 } }]);
  });

  it('tests: finds the bridge in the room, then asks a dispatcher with the room\'s name, and prints the platform\'s answer', async () => {
    const d = queueOf(() => ({ status: 200, body: 'ok', outcome: 'delivered', durationMs: 35 }));
    const commands = new BridgeCommands(rooms.queue, 'rooms', 'https://chat.example', { queue: d.queue, name: 'dispatcher' });
    const { kind, reply } = await commands.test('1', 7);
    expect(d.sent).toEqual([{ pattern: 'bridges.test.v1', payload: { bridgeId: 7, roomName: 'Ops' } }]);
    expect(bridgeTestText(kind, reply)).toBe('slack answered HTTP 200 in 35 ms (delivered)\nok');
    expect(bridgeTestText('discord', { status: null, body: 'timeout: no answer within 10000 ms', outcome: 'retry', durationMs: 10_000 }))
      .toBe('discord answered no answer in 10000 ms (retry)\ntimeout: no answer within 10000 ms');
  });

  it('says when no dispatcher runs, and that an unanswered test may have been posted', async () => {
    const idle = queueOf(() => ({}), false);
    await expect(new BridgeCommands(rooms.queue, 'rooms', '', { queue: idle.queue, name: 'chat.dispatcher' }).test('Ops', 7))
      .rejects.toThrow('the webhook dispatcher is not running (no answer on chat.dispatcher); start it with npm start');
    const silent = queueOf(() => new RpcFailure('no_answer', 'no answer to bridges.test.v1 within 10 ms'));
    await expect(new BridgeCommands(rooms.queue, 'rooms', '', { queue: silent.queue, name: 'chat.dispatcher' }).test('Ops', 7))
      .rejects.toThrow('no answer from the webhook dispatcher on chat.dispatcher (no answer to bridges.test.v1 within 10 ms): the test may have been posted');
    const missing = queueOf(() => new RpcCommandError(commandFailure('not_found', 'bridge_not_found', 'bridge', { ref: '7' }).error));
    const untouched = queueOf(() => ({}));
    await expect(new BridgeCommands(missing.queue, 'rooms', '', { queue: untouched.queue, name: 'd' }).test('Ops', 7)).rejects.toThrow('no bridge 7 in room Ops');
    expect(untouched.sent).toEqual([]);
  });

  it('lists deliveries with the webhook log\'s command, for the bridge\'s id, once it is found in the room', async () => {
    const d = queueOf(() => ({ deliveries: [delivery] }));
    const rows = await new BridgeCommands(rooms.queue, 'rooms', '', { queue: d.queue, name: 'd' }).deliveries('Ops', 7, { status: 'delivered', limit: 5 });
    expect(rows).toEqual([delivery]);
    expect(d.sent).toEqual([{ pattern: 'deliveries.list-deliveries.v1', payload: { webhookId: 7, startIndex: 0, limit: 5, status: 'delivered' } }]);
    await expect(new BridgeCommands(rooms.queue, 'rooms', '', { queue: d.queue, name: 'd' }).deliveries('Ops', 7, { status: 'lost' }))
      .rejects.toThrow('--status: must be one of pending, retrying, delivered, failed, cancelled');
  });
});
