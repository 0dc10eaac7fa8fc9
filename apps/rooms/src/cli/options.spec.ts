import { COMMAND_ARGUMENTS, COMMAND_OPTIONS, optionProblem, parseCommandLine, UsageError } from './options';

const refusal = (argv: string[]): string | undefined => {
  try {
    parseCommandLine(argv);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
};

describe('parseCommandLine: an option a command does not read is refused, never ignored', () => {
  it.each<[string[], string]>([
    [['token', 'create', '--type', 'room', '--room', 'Ops', '--scopes', 'admin_group'], '--scopes does not apply to --type room: a room token only sends notifications to its --room'],
    [['token', 'create', '--type', 'room', '--room', 'Ops', '--user', 'a@b.c'], '--user does not apply to --type room: a room token only sends notifications to its --room'],
    [['token', 'create', '--type', 'personal', '--user', 'a@b.c', '--room', 'Ops'], '--room does not apply to --type personal: a personal token acts as its --user, with its --scopes'],
    [['token', 'create', '--type', 'admin', '--scopes', 'view_group'], '--scopes does not apply to --type admin: admin and notification tokens (v1) have no user, room or scopes'],
    [['token', 'create', '--type', 'notification', '--user', '1'], '--user does not apply to --type notification: admin and notification tokens (v1) have no user, room or scopes'],
    [['token', 'create', '--type', 'admin', '--foo'], 'unknown option --foo for token create'],
    [['token', 'create', '--foo', 'bar', '--type', 'admin'], 'unknown option --foo for token create'],
    [['token', 'list', '-x'], 'unknown option -x for token list'],
    [['token', 'list', '--room', 'Ops'], '--room does not apply to token list (it is for token create, addon install, webhook list, bridge add, bridge list, bridge show, bridge remove, bridge enable, bridge test, bridge deliveries, audit)'],
    [['token', 'revoke', '5', '--json'], '--json does not apply to token revoke (it is for token list, addon list, webhook list, webhook deliveries, webhook delivery, bridge add, bridge list, bridge show, bridge test, bridge deliveries, audit)'],
    [['addon', 'uninstall', '7', '--room', 'Ops'], '--room does not apply to addon uninstall (it is for token create, addon install, webhook list, bridge add, bridge list, bridge show, bridge remove, bridge enable, bridge test, bridge deliveries, audit)'],
    [['webhook', 'enable', '3', '--room', 'Ops'], '--room does not apply to webhook enable (it is for token create, addon install, webhook list, bridge add, bridge list, bridge show, bridge remove, bridge enable, bridge test, bridge deliveries, audit)'],
    [['webhook', 'delivery', 'x', '--status', 'failed'], '--status does not apply to webhook delivery (it is for webhook deliveries, bridge deliveries)'],
    [['webhook', 'deliveries', '7', '--since', '2h'], '--since does not apply to webhook deliveries (it is for webhook recover, audit)'],
    [['webhook', 'redeliver', 'x', '--json'], '--json does not apply to webhook redeliver (it is for token list, addon list, webhook list, webhook deliveries, webhook delivery, bridge add, bridge list, bridge show, bridge test, bridge deliveries, audit)'],
    [['webhook', 'recover', '7', '--since', '2h', '--limit', '5'], '--limit does not apply to webhook recover (it is for webhook deliveries, bridge deliveries, audit)'],
    [['token', 'create', '--type', 'personal'], 'a personal token needs --user <id or e-mail address>'],
    [['token', 'create', '--type', 'room', '--label', 'x'], 'a room token needs --room <id or name>'],
    [['token', 'create', '--type', 'superuser'], '--type must be one of admin, notification, personal, room (got "superuser")'],
    [['token', 'create', '--type', 'superuser', '--user', '1'], '--type must be one of admin, notification, personal, room (got "superuser")'],
    [['file', 'restore-names', '--json'], '--json does not apply to file restore-names (it is for token list, addon list, webhook list, webhook deliveries, webhook delivery, bridge add, bridge list, bridge show, bridge test, bridge deliveries, audit)'],
    [['file', 'restore-names', '--dry-run'], 'unknown option --dry-run for file restore-names'],
  ])('%j', (argv, message) => {
    expect(refusal(argv)).toBe(message);
  });

  it('takes every option the README, the tests and the benchmark give', () => {
    for (const argv of [
      ['token', 'create', '--type', 'admin', '--label', 'my scripts'],
      ['token', 'create', '--type', 'notification', '--label', 'CI'],
      ['token', 'create', '--type', 'personal', '--user', 'ada@example.com', '--scopes', 'admin_group,view_group', '--label', 'bench'],
      ['token', 'create', '--type', 'room', '--room', 'Ops', '--label', 'deploys'],
      ['token', 'list', '--all', '--json'],
      ['token', 'revoke', '2'],
      ['addon', 'install', 'https://addon.example.com/capabilities.json', '--room', 'Deploys'],
      ['addon', 'list', '--json'],
      ['webhook', 'list', '--room', 'Ops', '--json'],
      ['webhook', 'deliveries', '1', '--status', 'failed', '--limit', '20', '--json'],
      ['webhook', 'delivery', 'x', '--json'],
      ['webhook', 'recover', '1', '--since', '2h'],
      ['file', 'restore-names'],
      ['user', 'invite', 'grace@example.com'],
      ['user', 'invite', '@grace'],
      ['audit', '--limit', '20'],
    ]) {
      expect(refusal(argv)).toBeUndefined();
    }
  });

  it('reads the values as parseArgs does', () => {
    expect(parseCommandLine(['token', 'create', '--type', 'room', '--room=Ops'])).toMatchObject({
      positionals: ['token', 'create'], values: { type: 'room', room: 'Ops', all: false, json: false, help: false },
    });
    // A value left out is still parseArgs' refusal (ERR_PARSE_ARGS_*, a usage error too).
    expect(() => parseCommandLine(['token', 'create', '--type'])).toThrow(expect.objectContaining({ code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' }));
    expect(() => parseCommandLine(['token', 'list', '--json=yes'])).toThrow(expect.objectContaining({ code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' }));
  });

  it('leaves an unknown command and --help to what names them', () => {
    // The dispatcher names the command.
    expect(optionProblem('token frobnicate', [{ name: 'room', rawName: '--room' }])).toBeUndefined();
    expect(refusal(['token', 'frobnicate', 'x', 'y'])).toBeUndefined();
    expect(refusal(['token', 'list', '--room', 'Ops', '-h'])).toBeUndefined();
    expect(refusal(['token', 'list', '5', '--help'])).toBeUndefined();
  });
});

describe('parseCommandLine: an argument a command does not read is refused, never ignored', () => {
  it('knows the arguments of every command it knows the options of', () => {
    expect(Object.keys(COMMAND_ARGUMENTS).sort()).toEqual(Object.keys(COMMAND_OPTIONS).sort());
  });

  it.each<[string[], string]>([
    [['token', 'list', '5'], 'token list takes no argument (got "5")'],
    [['token', 'create', 'admin', '--type', 'admin'], 'token create takes no argument (got "admin")'],
    [['addon', 'list', 'x', 'y'], 'addon list takes no argument (got "x" "y")'],
    [['webhook', 'list', 'Ops'], 'webhook list takes no argument (got "Ops")'],
    [['token', 'revoke', '5', '6'], 'token revoke takes one argument, the token id (got "6" after it)'],
    [['addon', 'install', 'https://a.example/d.json', 'Deploys'], 'addon install takes one argument, the descriptor URL (got "Deploys" after it)'],
    [['webhook', 'recover', '7', '2h', '--since', '2h'], 'webhook recover takes one argument, the webhook id (got "2h" after it)'],
    [['webhook', 'redeliver', 'a', 'b'], 'webhook redeliver takes one argument, the delivery id (got "b" after it)'],
    [['file', 'restore-names', './data/files'], 'file restore-names takes no argument (got "./data/files")'],
  ])('%j', (argv, message) => {
    expect(refusal(argv)).toBe(message);
  });

  it('leaves a missing argument to the command, which says what it needs', () => {
    expect(refusal(['token', 'revoke'])).toBeUndefined();
    expect(refusal(['webhook', 'deliveries'])).toBeUndefined();
  });
});
