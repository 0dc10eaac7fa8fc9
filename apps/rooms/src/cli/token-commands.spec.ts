import { commandFailure } from '@app/contracts';
import { describeTokenFailure } from './token-commands';

describe('describeTokenFailure', () => {
  it('words each refusal with the option the user gave or left out', () => {
    expect(describeTokenFailure(commandFailure('invalid', 'rule', 'kind', { problem: 'must be one of admin (got "x")' }), 'x', {}))
      .toBe('--type must be one of admin (got "x")');
    expect(describeTokenFailure(commandFailure('invalid', 'rule', 'label', { problem: 'must be at most 100 characters' }), 'admin', {}))
      .toBe('--label must be at most 100 characters');
    expect(describeTokenFailure(commandFailure('invalid', 'rule', 'user', { problem: 'is required for a personal token' }), 'personal', {}))
      .toBe('a personal token needs --user <id or e-mail address>');
    expect(describeTokenFailure(commandFailure('not_found', 'user_not_found', 'user', { ref: 'a@b.c' }), 'personal', { user: 'A@b.c' }))
      .toBe('--user: no user A@b.c');
    expect(describeTokenFailure(commandFailure('invalid', 'rule', 'room', { problem: 'is required for a room token' }), 'room', {}))
      .toBe('a room token needs --room <id or name>');
    expect(describeTokenFailure(commandFailure('not_found', 'room_not_found', 'room', { ref: '9' }), 'room', { room: '9' }))
      .toBe('--room: no room 9');
    expect(describeTokenFailure(commandFailure('invalid', 'rule', 'scopes', { scope: 'fly', problem: 'unknown scope "fly"' }), 'personal', {}))
      .toBe('--scopes: unknown scope "fly"');
    expect(describeTokenFailure(commandFailure('invalid', 'rule', 'scopes', { problem: 'must name at least one scope' }), 'personal', {}))
      .toBe('--scopes must name at least one scope');
    expect(describeTokenFailure(commandFailure('invalid', 'rule', 'owner', { problem: 'x' }), 'admin', { user: '1' }))
      .toBe('--user, --room and --scopes are for v2 tokens (personal, room), not admin tokens');
  });
});
