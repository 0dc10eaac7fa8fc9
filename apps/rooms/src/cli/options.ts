import { parseArgs, ParseArgsConfig } from 'node:util';

/** A mistake in what was typed: the CLI prints it with the usage, and exits with 2. */
export class UsageError extends Error {}

/** Every option of the CLI, as parseArgs reads them. */
export const CLI_OPTIONS = {
  type: { type: 'string' },
  label: { type: 'string' },
  user: { type: 'string' },
  room: { type: 'string' },
  scopes: { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  actor: { type: 'string' },
  action: { type: 'string' },
  'start-index': { type: 'string' },
  kind: { type: 'string' },
  url: { type: 'string' },
  name: { type: 'string' },
  events: { type: 'string' },
  pattern: { type: 'string' },
  'matrix-room': { type: 'string' },
  inbound: { type: 'boolean', default: false },
  all: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const satisfies ParseArgsConfig['options'];

export type CliOption = keyof typeof CLI_OPTIONS;

/**
 * The options each command reads (and --help, which any takes). parseArgs knows only their
 * union: without this list a command ignored an option meant for another, and
 * `token list --room Ops` listed every token.
 */
export const COMMAND_OPTIONS: Readonly<Record<string, readonly CliOption[]>> = {
  'token create': ['type', 'label', 'user', 'room', 'scopes'],
  'token list': ['all', 'json'],
  'token revoke': [],
  'addon install': ['room'],
  'addon list': ['json'],
  'addon uninstall': [],
  'webhook list': ['room', 'json'],
  'webhook enable': [],
  'webhook deliveries': ['status', 'limit', 'json'],
  'webhook delivery': ['json'],
  'webhook redeliver': [],
  'webhook recover': ['since'],
  'bridge add': ['room', 'kind', 'url', 'name', 'events', 'pattern', 'matrix-room', 'inbound', 'json'],
  'bridge list': ['room', 'json'],
  'bridge show': ['room', 'json'],
  'bridge remove': ['room'],
  'bridge enable': ['room'],
  'bridge test': ['room', 'json'],
  'bridge deliveries': ['room', 'status', 'limit', 'json'],
  'file restore-names': [],
  audit: ['limit', 'start-index', 'actor', 'action', 'room', 'since', 'until', 'json'],
  'user invite': [],
  'secrets rotate-key': [],
};

/**
 * The arguments each command takes after its name, by what they are: more are refused
 * (`token list 5` listed every token). Fewer are left to the command, which says what it needs.
 */
export const COMMAND_ARGUMENTS: Readonly<Record<string, readonly string[]>> = {
  'token create': [],
  'token list': [],
  'token revoke': ['the token id'],
  'addon install': ['the descriptor URL'],
  'addon list': [],
  'addon uninstall': ['the installation id'],
  'webhook list': [],
  'webhook enable': ['the webhook id'],
  'webhook deliveries': ['the webhook id'],
  'webhook delivery': ['the delivery id'],
  'webhook redeliver': ['the delivery id'],
  'webhook recover': ['the webhook id'],
  'bridge add': [],
  'bridge list': [],
  'bridge show': ['the bridge id'],
  'bridge remove': ['the bridge id'],
  'bridge enable': ['the bridge id'],
  'bridge test': ['the bridge id'],
  'bridge deliveries': ['the bridge id'],
  'file restore-names': [],
  'user invite': ['the user (an id, e-mail address or @mention name)'],
  audit: [],
  'secrets rotate-key': [],
};

/** token create: the options that depend on --type. */
const OWNER_OPTIONS: readonly CliOption[] = ['user', 'room', 'scopes'];

/**
 * token create: which of OWNER_OPTIONS each --type takes, and why the others do not apply
 * (a room token's scope is fixed: --scopes was dropped without a word).
 */
const TOKEN_TYPES: Readonly<Record<string, { takes: readonly CliOption[]; why: string; needs?: [CliOption, string] }>> = {
  admin: { takes: [], why: 'admin and notification tokens (v1) have no user, room or scopes' },
  notification: { takes: [], why: 'admin and notification tokens (v1) have no user, room or scopes' },
  personal: { takes: ['user', 'scopes'], why: 'a personal token acts as its --user, with its --scopes', needs: ['user', 'a personal token needs --user <id or e-mail address>'] },
  room: { takes: ['room'], why: 'a room token only sends notifications to its --room', needs: ['room', 'a room token needs --room <id or name>'] },
};

const TYPE_RULE = `--type must be one of ${Object.keys(TOKEN_TYPES).join(', ')}`;

/** An option as it was typed: `name` as parseArgs resolved it (`-h` is help), `rawName` as typed. */
export interface GivenOption {
  name: string;
  rawName: string;
}

/**
 * Why an option given to `command` ("token create") cannot be taken, or undefined. `type`:
 * token create's --type, which must be a known one. An unknown command is left to what names
 * it; --help takes any option (it only prints the usage).
 */
export function optionProblem(command: string, given: readonly GivenOption[], type?: unknown): string | undefined {
  const takes = Object.hasOwn(COMMAND_OPTIONS, command) ? COMMAND_OPTIONS[command] : undefined;
  if (!takes || given.some((o) => o.name === 'help')) return undefined;
  if (command === 'token create' && typeof type === 'string' && !Object.hasOwn(TOKEN_TYPES, type)) {
    return `${TYPE_RULE} (got "${type.slice(0, 50)}")`;
  }
  const owned = command === 'token create' && typeof type === 'string' && Object.hasOwn(TOKEN_TYPES, type) ? TOKEN_TYPES[type] : undefined;
  for (const { name, rawName } of given) {
    if (!Object.hasOwn(CLI_OPTIONS, name)) return `unknown option ${rawName} for ${command}`;
    const option = name as CliOption;
    if (!takes.includes(option)) return `${rawName} does not apply to ${command} (it is for ${commandsTaking(option).join(', ')})`;
    if (owned && OWNER_OPTIONS.includes(option) && !owned.takes.includes(option)) return `${rawName} does not apply to --type ${type}: ${owned.why}`;
  }
  // What was left out is a mistake in what was typed too (exit 2, as the rest), said before
  // any database is opened.
  if (owned?.needs && !given.some((o) => o.name === owned.needs![0])) return owned.needs[1];
  return undefined;
}

/** Why the arguments after `command`'s name are too many, or undefined (see COMMAND_ARGUMENTS). */
export function argumentProblem(command: string, args: readonly string[]): string | undefined {
  const takes = Object.hasOwn(COMMAND_ARGUMENTS, command) ? COMMAND_ARGUMENTS[command] : undefined;
  if (!takes || args.length <= takes.length) return undefined;
  const extra = args.slice(takes.length).map((a) => `"${a.slice(0, 50)}"`).join(' ');
  return takes.length === 0
    ? `${command} takes no argument (got ${extra})`
    : `${command} takes one argument, ${takes[0]} (got ${extra} after it)`;
}

const commandsTaking = (option: CliOption): string[] => Object.keys(COMMAND_OPTIONS).filter((c) => COMMAND_OPTIONS[c].includes(option));

/**
 * Reads the command line: refuses, as a UsageError, an option the command does not take
 * (see COMMAND_OPTIONS), an unknown token --type and arguments beyond the command's (see
 * COMMAND_ARGUMENTS), then reads the values with parseArgs' own checks (a value missing,
 * a value given to a flag).
 */
export function parseCommandLine(argv: string[]) {
  // Loose first: every option given comes back as a token, an unknown one too, to be named
  // with the command it was given to.
  const loose = parseArgs({ args: argv, options: CLI_OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const given = loose.tokens.flatMap((t) => (t.kind === 'option' ? [{ name: t.name, rawName: t.rawName }] : []));
  const [resource, action] = loose.positionals;
  // `audit` is a command of one word: its name alone.
  const command = resource === 'audit' ? resource : `${resource ?? ''} ${action ?? ''}`;
  const helping = given.some((o) => o.name === 'help');
  const problem = optionProblem(command, given, loose.values.type) ?? (helping ? undefined : argumentProblem(command, loose.positionals.slice(command === 'audit' ? 1 : 2)));
  if (problem) throw new UsageError(problem);
  return parseArgs({ args: argv, options: CLI_OPTIONS, allowPositionals: true });
}
