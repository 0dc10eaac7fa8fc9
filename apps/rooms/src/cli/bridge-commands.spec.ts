import { commandFailure } from '@app/contracts';
import { bridgeSpecOfInput, bridgeTable, describeBridgeFailure } from './bridge-commands';

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
