import { RpcCommandError, RpcFailure } from '@app/common';
import { AddonInstallationView, CommandDefinition, commandFailure, CommandError } from '@app/contracts';
import { AddonCommands, describeAddonFailure, RoomsCommandQueue } from './addon-commands';

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
  return { commands: new AddonCommands(rooms, QUEUE), sent };
}

const refusal = (error: CommandError) => () => { throw new RpcCommandError(error); };
const failure = (kind: RpcFailure['kind'], message: string) => () => { throw new RpcFailure(kind, message); };

const view: AddonInstallationView = {
  id: 7, key: 'greeter', name: 'Greeter', descriptorUrl: 'http://127.0.0.1:9/d', callbackUrl: 'http://127.0.0.1:9/i', roomId: 3,
  oauthClientId: 'abc', scopes: ['send_notification'], webhookIds: [1], installedByUserId: null, created: '2024-01-01T00:00:00.000Z',
};

describe('AddonCommands', () => {
  it('sends the rooms service its own commands, as the CLI actor, and answers the installed line', async () => {
    const { commands, sent } = queue(() => ({ installation: view }));
    expect(await commands.install('http://127.0.0.1:9/d', 'Ops')).toEqual({ id: 7, oauth_id: 'abc', key: 'greeter', room_id: 3 });
    await commands.install('http://127.0.0.1:9/d');
    await commands.uninstall(7);
    expect(sent).toEqual([
      { pattern: 'addons.install-addon.v1', payload: { actor: { label: 'cli' }, url: 'http://127.0.0.1:9/d', room: { name: 'Ops' } } },
      { pattern: 'addons.install-addon.v1', payload: { actor: { label: 'cli' }, url: 'http://127.0.0.1:9/d' } },
      { pattern: 'addons.uninstall-addon.v1', payload: { actor: { label: 'cli' }, id: 7 } },
    ]);
  });

  it('lists every installation in one page', async () => {
    const { commands, sent } = queue(() => ({ installations: [view] }));
    expect(await commands.list()).toEqual([view]);
    expect(sent).toEqual([{ pattern: 'addons.list-addons.v1', payload: { actor: { label: 'cli' }, startIndex: 0, limit: 1001 } }]);
  });

  it('says the rooms service is not running when nothing consumes its queue, and sends nothing', async () => {
    const { commands, sent } = queue(() => ({}), false);
    await expect(commands.install('http://127.0.0.1:9/d')).rejects.toThrow(
      new Error('the rooms service is not running (no answer on chat.rooms.commands); start it with npm start'));
    await expect(commands.list()).rejects.toThrow('the rooms service is not running');
    expect(sent).toEqual([]);
  });

  it('says a change sent but not answered may have been applied', async () => {
    const { commands } = queue(failure('no_answer', 'no answer to addons.install-addon.v1 within 10000 ms'));
    await expect(commands.install('http://127.0.0.1:9/d')).rejects.toThrow(new Error(
      'no answer from the rooms service on chat.rooms.commands (no answer to addons.install-addon.v1 within 10000 ms): '
      + 'the outcome is unknown, the add-on may have been installed; see cli addon list'));
    await expect(commands.uninstall(7)).rejects.toThrow('the outcome is unknown, the add-on may have been uninstalled');
    await expect(commands.list()).rejects.toThrow(new Error(
      'no answer from the rooms service on chat.rooms.commands (no answer to addons.install-addon.v1 within 10000 ms)'));
  });

  it('says a command that was not sent changed nothing', async () => {
    const { commands } = queue(failure('not_sent', 'the message broker is unreachable'));
    await expect(commands.install('http://127.0.0.1:9/d')).rejects.toThrow(
      new Error('the rooms service was not reached (the message broker is unreachable); nothing was changed'));
  });

  it('words the command\'s refusal for the terminal', async () => {
    const { commands } = queue(refusal(commandFailure('not_found', 'addon_not_found', 'id', { ref: 7 }).error));
    await expect(commands.uninstall(7)).rejects.toThrow(new Error('no add-on installation 7'));
  });
});

describe('describeAddonFailure', () => {
  const words = (e: { error: CommandError }, subject = {}) => describeAddonFailure(e.error, subject);

  it('words each refusal of the add-on commands', () => {
    expect(words(commandFailure('not_found', 'room_not_found', 'room', { ref: 'Ops' }))).toBe('--room: no room Ops');
    expect(words(commandFailure('invalid', 'addon_descriptor_invalid', 'url', { url: 'http://a.test/d', problem: 'could not be fetched: it answered HTTP 404' })))
      .toBe('add-on descriptor http://a.test/d: could not be fetched: it answered HTTP 404');
    expect(words(commandFailure('conflict', 'addon_not_installable', 'url', { problem: 'the add-on greeter is already installed group-wide' })))
      .toBe('the add-on cannot be installed: the add-on greeter is already installed group-wide');
    expect(words(commandFailure('invalid', 'addon_callback_failed', 'url', { url: 'http://a.test/i', problem: 'it answered HTTP 500' })))
      .toBe("the add-on's installation callback http://a.test/i failed (it answered HTTP 500); nothing was installed");
    expect(words(commandFailure('forbidden', 'not_allowed', 'room', { message: 'no' }))).toBe('room: no');
  });

  it('words a field the service refused as the argument it came from', () => {
    expect(words(commandFailure('invalid', 'rule', 'url', { problem: 'must be an absolute http(s) URL' }), { url: 'nope' }))
      .toBe('add-on descriptor nope: must be an absolute http(s) URL');
    expect(words(commandFailure('invalid', 'rule', 'id', { problem: 'Number must be greater than 0' }), { id: 0 })).toBe('no add-on installation 0');
    expect(words(commandFailure('invalid', 'rule', 'room', { problem: 'Invalid input' }), { room: 'x'.repeat(101) })).toBe('--room: Invalid input');
  });

  it('names an add-on\'s URLs without their query or credentials, where add-on frameworks put tokens', () => {
    expect(words(commandFailure('invalid', 'addon_descriptor_invalid', 'url', { url: 'https://a.test/d?key=SECRETQ', problem: 'it is not JSON' })))
      .toBe('add-on descriptor https://a.test/d: it is not JSON');
    expect(words(commandFailure('invalid', 'addon_callback_failed', 'url', { url: 'https://u:SECRETP@a.test/i#t=SECRETQ', problem: 'it answered HTTP 500' })))
      .toBe("the add-on's installation callback https://a.test/i failed (it answered HTTP 500); nothing was installed");
    expect(words(commandFailure('invalid', 'rule', 'url', { problem: 'must be at most 2000 characters' }), { url: 'https://a.test/d?key=SECRETQ' }))
      .toBe('add-on descriptor https://a.test/d: must be at most 2000 characters');
  });
});
