import 'reflect-metadata';
import { stat } from 'node:fs/promises';
import { AmqpBroker, assertPostgresReachable, createLogger, databaseName, ensureDatabase, loadConfigOrExit, LocalDirectoryStorage } from '@app/common';
import { brokerNames } from '@app/contracts';
import { roomsConfigShape } from './config';
import { createDataSource, openDatabase } from './database/database';
import { createUnitOfWork, presentationContext } from './shared/infrastructure.module';
import { AddonCommands, addonCliConfigShape } from './cli/addon-commands';
import { BridgeCommands, bridgeCliConfigShape, bridgeTable, bridgeTestText } from './cli/bridge-commands';
import { AUDIT_NOTE, AUDIT_USAGE, AuditCommands, auditCliConfigShape, auditFilter, auditPage, auditTable } from './cli/audit-commands';
import { parseCommandLine, UsageError } from './cli/options';
import { FileCommands, fileCliConfigShape } from './cli/file-commands';
import {
  deliveriesTable, DELIVERY_ACTIONS, DELIVERY_NOTE, DELIVERY_USAGE, DeliveryAction, DeliveryUsageError, limitOf, runDeliveryCommand,
} from './cli/delivery-commands';
import { TokenCommands } from './cli/token-commands';
import { USER_USAGE, UserCommands } from './cli/user-commands';
import { WebhookCommands, webhookTable } from './cli/webhook-commands';
import { describeReseal, resealSecrets, sum } from './secrets/reseal-secrets';
import { SecretsRepository } from './secrets/secrets.repository';

const USAGE = `Usage:
  cli token create --type admin|notification [--label TEXT]   a v1 token, printed alone on stdout
  cli token create --type personal --user ID|EMAIL [--scopes a,b,...] [--label TEXT]
                                                              a v2 token acting as that user (default: every scope)
  cli token create --type room --room ID|NAME [--label TEXT]  a v2 token that sends notifications to that room
  cli token list [--all] [--json]                             live tokens (--all: revoked and expired too)
  cli token revoke ID                                         revokes a token by its id
${USER_USAGE}
  cli addon install DESCRIPTOR-URL [--room ID|NAME]           installs an add-on (group-wide without --room);
                                                              prints {id, oauth_id, key, room_id} as one JSON line
  cli addon list [--json]                                     installed add-ons
  cli addon uninstall ID                                      uninstalls an add-on (webhooks and tokens go with it)
${DELIVERY_USAGE}
  cli webhook list [--room ID|NAME] [--json]                  webhooks with their health (every room's, and group-wide ones)
  cli webhook enable ID                                       enables a webhook disabled for failing, and resets its health
  cli bridge add --room ID|NAME --kind KIND --url URL [--name TEXT] [--events a,b] [--pattern RE2]
                 [--matrix-room !ID:SERVER] [--inbound] [--json]
                                                              bridges a room to slack, mattermost, discord, teams, googlechat,
                                                              rocketchat or matrix; with --inbound prints the inbound URL (once)
  cli bridge list --room ID|NAME [--json]                     the room's bridges with their health
  cli bridge show ID --room ID|NAME [--json]                  one bridge
  cli bridge remove ID --room ID|NAME                         removes a bridge
  cli bridge enable ID --room ID|NAME                         enables a bridge disabled for failing, and resets its health
  cli bridge test ID --room ID|NAME [--json]                  posts "Bridge test from ROOM" now; prints what the platform answered
  cli bridge deliveries ID --room ID|NAME [--status S] [--limit N] [--json]
                                                              the bridge's deliveries, newest first (default 50, at most 1000)
${AUDIT_USAGE}
  cli file restore-names                                      gives files shared before names were kept the name they were
                                                              shared under (once, after upgrading; safe to run again)
  cli secrets rotate-key                                      re-encrypts every stored secret (webhook signing secrets, OAuth
                                                              client secrets, bridges' tokens and inbound keys, those of removed
                                                              webhooks and bridges and of command replies) under the first key
                                                              of SECRETS_KEYS; safe to repeat

token and user read DATABASE_URL (default postgres://postgres@127.0.0.1:5432/chat) and works with the
services stopped. A revocation reaches the gateways when the running rooms service publishes
it; while the broker (AMQP_URL, BROKER_NAMESPACE) is reachable, revoke waits up to 5 s for that.
addon sends its command to the running rooms service through AMQP_URL and BROKER_NAMESPACE
(waiting COMMAND_TIMEOUT_MS, default 10000, for its answer); the service makes the outbound
requests to the add-on with its own settings (WEBHOOK_ALLOWED_NETWORKS, ADDON_HTTP_TIMEOUT_MS).
webhook list and enable go to the running rooms service the same way, and so do the bridge commands
(bridge test and deliveries then go to the running webhook dispatcher);
bridge add reads its secrets from the environment, never the command line: BRIDGE_MATRIX_TOKEN (the
Matrix bot's access token), BRIDGE_INBOUND_TOKEN (the platform's verification token),
BRIDGE_INBOUND_HMAC_SECRET (Teams' security token); the inbound URL starts with PUBLIC_BASE_URL.
file restore-names reads the names from DATABASE_URL and writes them beside the files in
FILE_STORAGE_DIR (default ./data/files): run it where the gateways' directory is mounted.
${AUDIT_NOTE}
${DELIVERY_NOTE}
secrets rotate-key reads DATABASE_URL and SECRETS_KEYS (the same as the rooms service's) and works with
the services running or stopped; the rooms service does the same on start.`;

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandLine(argv);
  const [resource, action, arg] = positionals;
  if (values.help || !resource) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  if (resource === 'addon') return runAddon(action, arg, values);
  if (resource === 'file') return runFile(action);
  if (resource === 'audit') return runAudit(values);
  if (resource === 'user') return runUser(action, arg);
  if (resource === 'secrets') return runSecrets(action);
  if (resource === 'webhook' && (DELIVERY_ACTIONS as readonly string[]).includes(action ?? '')) {
    return runDeliveryCommand(action as DeliveryAction, arg, values, (text) => process.stdout.write(`${text}\n`));
  }
  if (resource === 'webhook' && (action === 'list' || action === 'enable')) return runWebhook(action, arg, values);
  if (resource === 'bridge') return runBridge(action, arg, values);
  if (resource === 'webhook') throw new UsageError(`unknown webhook action "${action ?? ''}"`);
  if (resource !== 'token') throw new UsageError(`unknown command "${resource}"`);
  if (!['create', 'list', 'revoke'].includes(action ?? '')) throw new UsageError(`unknown token action "${action ?? ''}"`);
  if (action === 'create' && !values.type) throw new UsageError('token create needs --type admin, notification, personal or room');
  if (action === 'revoke' && !/^\d+$/.test(arg ?? '')) throw new UsageError('token revoke needs the numeric token id');

  // Tokens keep no secret that SECRETS_KEYS seals: the token commands do not need the keys.
  const { SECRETS_KEYS: _keys, ...tokenShape } = roomsConfigShape;
  const config = loadConfigOrExit('cli', tokenShape);
  await assertPostgresReachable(config.DATABASE_URL, 2000);
  // As the service does, the CLI makes the database it is pointed at: say so, as a mistyped
  // DATABASE_URL would otherwise answer with a token (or a list) of a database nothing serves.
  if (await ensureDatabase(config.DATABASE_URL)) {
    process.stderr.write(`cli: the database "${databaseName(config.DATABASE_URL)}" did not exist and was created: is DATABASE_URL the one the service uses?\n`);
  }
  const db = await openDatabase(config.DATABASE_URL, 2);
  // Logs go to stderr: stdout carries only what the command prints.
  const logger = createLogger('cli', 'warn', 2);
  // The CLI publishes nothing itself (its relay never starts): the rooms service's relay
  // publishes a revocation, and the CLI waits for that while the broker is reachable. It opens
  // the broker to tell only once a token is revoked: opened up front, it was closed at once
  // when there was no such token, cutting short the set-up of a publisher channel the CLI
  // never used, and amqplib's "Channel ended" came out as a warning.
  let broker: Promise<AmqpBroker | undefined> | undefined;
  const brokerReachable = async (): Promise<boolean> => {
    broker ??= AmqpBroker.connect(config.AMQP_URL, brokerNames(config.BROKER_NAMESPACE), logger, 2000).catch(() => undefined);
    if (await broker) return true;
    process.stderr.write('cannot reach RabbitMQ (AMQP_URL): the revocation is recorded and reaches the gateways once the rooms service publishes it\n');
    return false;
  };
  const work = createUnitOfWork(db, undefined, logger, config, { awaitRelay: brokerReachable });
  try {
    const tokens = new TokenCommands(db, work.uow);
    if (action === 'create') {
      const scopes = values.scopes?.split(/[\s,]+/).filter(Boolean);
      const created = await tokens.create(values.type!, values.label ?? '', { user: values.user, room: values.room, scopes });
      process.stdout.write(`${created.token}\n`);
      process.stderr.write(`created ${created.kind} token id ${created.id}${created.label ? ` (${created.label})` : ''}\n`);
      return 0;
    }
    if (action === 'list') {
      const rows = await tokens.list(values.all);
      if (values.json) {
        process.stdout.write(`${JSON.stringify(rows.map((t) => ({
          id: t.id, kind: t.kind, label: t.label, userId: t.userId, roomId: t.roomId, scopes: t.scopes, created: t.createdAt.toISOString(), revoked: t.revokedAt?.toISOString() ?? null,
          expires: t.expiresAt?.toISOString() ?? null,
        })), null, 2)}\n`);
      } else {
        process.stdout.write(`${['ID', 'KIND', 'CREATED', 'REVOKED', 'EXPIRES', 'LABEL'].join('\t')}\n`);
        for (const t of rows) {
          process.stdout.write(`${[t.id, t.kind, t.createdAt.toISOString(), t.revokedAt?.toISOString() ?? '-', t.expiresAt?.toISOString() ?? '-', t.label].join('\t')}\n`);
        }
      }
      return 0;
    }
    const ok = await tokens.revoke(Number(arg));
    if (!ok) {
      process.stderr.write(`no live token with id ${arg}\n`);
      return 1;
    }
    process.stderr.write(`revoked token id ${arg}\n`);
    return 0;
  } finally {
    await work.relay.stop();
    await (await broker)?.close();
    await db.destroy();
  }
}

/**
 * `addon install|list|uninstall`: the rooms service's own commands, sent to the running
 * service over the broker (its settings govern the calls to the add-on).
 */
async function runAddon(action: string | undefined, arg: string | undefined, values: { room?: string; json: boolean }): Promise<number> {
  if (!['install', 'list', 'uninstall'].includes(action ?? '')) throw new UsageError(`unknown addon action "${action ?? ''}"`);
  if (action === 'install' && !arg) throw new UsageError('addon install needs the descriptor URL');
  if (action === 'uninstall' && !/^\d{1,9}$/.test(arg ?? '')) throw new UsageError('addon uninstall needs the numeric installation id');

  const config = loadConfigOrExit('cli', addonCliConfigShape);
  const names = brokerNames(config.BROKER_NAMESPACE);
  const logger = createLogger('cli', 'warn', 2);
  const broker = await AmqpBroker.connect(config.AMQP_URL, names, logger, 2000).catch((err: Error) => {
    throw new Error(`cannot reach RabbitMQ (AMQP_URL): ${err.message}; the rooms service takes add-on commands through it`);
  });
  try {
    const addons = new AddonCommands(await broker.createRpcClient(names.roomsCommandQueue, config.COMMAND_TIMEOUT_MS), names.roomsCommandQueue);
    if (action === 'install') {
      process.stdout.write(`${JSON.stringify(await addons.install(arg!, values.room))}\n`);
      return 0;
    }
    if (action === 'uninstall') {
      await addons.uninstall(Number(arg));
      // Said, as token revoke and webhook enable say theirs: silence read as nothing done.
      process.stderr.write(`uninstalled add-on installation ${arg}: its webhooks and tokens are gone\n`);
      return 0;
    }
    const rows = await addons.list();
    if (values.json) {
      process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    } else {
      process.stdout.write(`${['ID', 'KEY', 'ROOM', 'OAUTH_ID', 'WEBHOOKS', 'CREATED', 'NAME'].join('\t')}\n`);
      for (const i of rows) {
        process.stdout.write(`${[i.id, i.key, i.roomId ?? 'group', i.oauthClientId, i.webhookIds.length, i.created, i.name].join('\t')}\n`);
      }
    }
    return 0;
  } finally {
    await broker.close();
  }
}

/**
 * `file restore-names`: the names of files shared before the gateway kept them, from the
 * database into the files' sidecars. It reads the database directly (as `token` does), with no
 * migration: the service's schema is the one it reads.
 */
async function runFile(action: string | undefined): Promise<number> {
  if (action !== 'restore-names') throw new UsageError(`unknown file action "${action ?? ''}"`);
  const config = loadConfigOrExit('cli', fileCliConfigShape);
  // Elsewhere than the gateways' directory, every file would only be counted as absent.
  const dir = await stat(config.FILE_STORAGE_DIR).catch(() => null);
  if (!dir?.isDirectory()) {
    throw new Error(`FILE_STORAGE_DIR (${config.FILE_STORAGE_DIR}) is not a directory: run this where the gateways' files are, with their FILE_STORAGE_DIR`);
  }
  await assertPostgresReachable(config.DATABASE_URL, 2000);
  const db = await createDataSource(config.DATABASE_URL, 2).initialize();
  try {
    const r = await new FileCommands(db, new LocalDirectoryStorage(config.FILE_STORAGE_DIR)).restoreNames();
    process.stdout.write(`named ${r.named} file(s); ${r.kept} had a name already, ${r.absent} not in FILE_STORAGE_DIR; ${r.skipped} message(s) skipped (no name, or no file URL of ours)\n`);
    return 0;
  } finally {
    await db.destroy();
  }
}

/** `user invite`: in this process, on the database, as `token create` is (the invitation publishes no event). */
async function runUser(action: string | undefined, arg: string | undefined): Promise<number> {
  if (action !== 'invite') throw new UsageError(`unknown user action "${action ?? ''}"`);
  if (!arg) throw new UsageError('user invite needs the user: an id, an e-mail address or @mention name');
  const { SECRETS_KEYS: _keys, ...userShape } = roomsConfigShape;
  const config = loadConfigOrExit('cli', userShape);
  await assertPostgresReachable(config.DATABASE_URL, 2000);
  const db = await openDatabase(config.DATABASE_URL, 2);
  const work = createUnitOfWork(db, undefined, createLogger('cli', 'warn', 2), config);
  try {
    const made = await new UserCommands(work.uow, presentationContext(config)).invite(arg);
    process.stdout.write(`${made.url}\n`);
    process.stderr.write(`invited user ${made.user.id} (${made.user.name}, ${made.user.email}); the link works once, until ${made.expires}\n`);
    return 0;
  } finally {
    await work.relay.stop();
    await db.destroy();
  }
}

/** `audit`: the audit log, read from the database as `token list` reads the tokens. */
async function runAudit(values: { limit?: string; 'start-index'?: string; actor?: string; action?: string; room?: string; since?: string; until?: string; json: boolean }): Promise<number> {
  const page = auditPage(values);
  const filter = auditFilter(values);
  const config = loadConfigOrExit('cli', auditCliConfigShape);
  await assertPostgresReachable(config.DATABASE_URL, 2000);
  const db = await createDataSource(config.DATABASE_URL, 2).initialize();
  try {
    const items = await new AuditCommands(db).list(page, filter);
    process.stdout.write(values.json ? `${JSON.stringify(items, null, 2)}\n` : auditTable(items));
    return 0;
  } finally {
    await db.destroy();
  }
}

/**
 * `secrets rotate-key`: every stored secret sealed with the first key of SECRETS_KEYS (see
 * resealSecrets), straight in the database, as the rooms service does on start. Fails (1)
 * when a value could not be decrypted: the key it names must stay in SECRETS_KEYS.
 */
async function runSecrets(action: string | undefined): Promise<number> {
  if (action !== 'rotate-key') throw new UsageError(`unknown secrets action "${action ?? ''}"`);
  const config = loadConfigOrExit('cli', { DATABASE_URL: roomsConfigShape.DATABASE_URL, SECRETS_KEYS: roomsConfigShape.SECRETS_KEYS });
  await assertPostgresReachable(config.DATABASE_URL, 2000);
  const db = await createDataSource(config.DATABASE_URL, 2).initialize();
  try {
    const report = await resealSecrets(new SecretsRepository(db), config.SECRETS_KEYS);
    process.stdout.write(`${describeReseal(report)}\n`);
    return sum(report.unreadable) > 0 ? 1 : 0;
  } finally {
    await db.destroy();
  }
}

/** `webhook list|enable`: operator commands, sent to the running rooms service over the broker. */
async function runWebhook(action: 'list' | 'enable', arg: string | undefined, values: { room?: string; json: boolean }): Promise<number> {
  if (action === 'enable' && !/^\d{1,9}$/.test(arg ?? '')) throw new UsageError('webhook enable needs the numeric webhook id');

  const config = loadConfigOrExit('cli', addonCliConfigShape);
  const names = brokerNames(config.BROKER_NAMESPACE);
  const logger = createLogger('cli', 'warn', 2);
  const broker = await AmqpBroker.connect(config.AMQP_URL, names, logger, 2000).catch((err: Error) => {
    throw new Error(`cannot reach RabbitMQ (AMQP_URL): ${err.message}; the rooms service takes webhook commands through it`);
  });
  try {
    const webhooks = new WebhookCommands(await broker.createRpcClient(names.roomsCommandQueue, config.COMMAND_TIMEOUT_MS), names.roomsCommandQueue);
    if (action === 'enable') {
      const enabled = await webhooks.enable(Number(arg));
      process.stderr.write(`webhook ${enabled.id} is enabled; its health is reset\n`);
      return 0;
    }
    const lines = await webhooks.list(values.room);
    process.stdout.write(values.json ? `${JSON.stringify(lines, null, 2)}\n` : webhookTable(lines));
    return 0;
  } finally {
    await broker.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`cli: ${message}\n`);
    if (err instanceof UsageError || err instanceof DeliveryUsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${USAGE}\n`);
      process.exit(2);
    }
    process.exit(1);
  },
);

/**
 * `bridge add|list|show|remove|enable|test|deliveries`: the commands of /v2/room/{room}/bridge,
 * sent to the running rooms service as the operator (test and deliveries then to the dispatchers).
 */
async function runBridge(
  action: string | undefined, arg: string | undefined,
  values: {
    room?: string; kind?: string; url?: string; name?: string; events?: string; pattern?: string; 'matrix-room'?: string; inbound: boolean; json: boolean;
    status?: string; limit?: string;
  },
): Promise<number> {
  if (!['add', 'list', 'show', 'remove', 'enable', 'test', 'deliveries'].includes(action ?? '')) throw new UsageError(`unknown bridge action "${action ?? ''}"`);
  if (!values.room) throw new UsageError(`bridge ${action} needs --room <id or name>`);
  if (!['add', 'list'].includes(action!) && !/^\d{1,9}$/.test(arg ?? '')) throw new UsageError(`bridge ${action} needs the numeric bridge id`);
  const limit = limitOf(values.limit);
  if (action === 'add' && (!values.kind || !values.url)) throw new UsageError('bridge add needs --kind and --url');

  const config = loadConfigOrExit('cli', bridgeCliConfigShape);
  const names = brokerNames(config.BROKER_NAMESPACE);
  const logger = createLogger('cli', 'warn', 2);
  const broker = await AmqpBroker.connect(config.AMQP_URL, names, logger, 2000).catch((err: Error) => {
    throw new Error(`cannot reach RabbitMQ (AMQP_URL): ${err.message}; the rooms service takes bridge commands through it`);
  });
  try {
    const dispatcher = action === 'test' || action === 'deliveries'
      ? { queue: await broker.createRpcClient(names.dispatcherCommandQueue, config.COMMAND_TIMEOUT_MS), name: names.dispatcherCommandQueue } : undefined;
    const bridges = new BridgeCommands(
      await broker.createRpcClient(names.roomsCommandQueue, config.COMMAND_TIMEOUT_MS), names.roomsCommandQueue, config.PUBLIC_BASE_URL, dispatcher);
    if (action === 'enable') {
      const line = await bridges.enable(values.room, Number(arg));
      process.stderr.write(`bridge ${line.id} is enabled; its health is reset\n`);
      return 0;
    }
    if (action === 'test') {
      const { kind, reply } = await bridges.test(values.room, Number(arg));
      process.stdout.write(`${values.json ? JSON.stringify(reply, null, 2) : bridgeTestText(kind, reply)}\n`);
      return reply.outcome === 'delivered' ? 0 : 1;
    }
    if (action === 'deliveries') {
      const rows = await bridges.deliveries(values.room, Number(arg), { status: values.status, limit });
      process.stdout.write(`${values.json ? JSON.stringify(rows, null, 2) : deliveriesTable(rows)}\n`);
      return 0;
    }
    if (action === 'add') {
      const line = await bridges.add({
        room: values.room, kind: values.kind!, url: values.url!, name: values.name, events: values.events, pattern: values.pattern,
        matrixRoom: values['matrix-room'], matrixToken: config.BRIDGE_MATRIX_TOKEN, inbound: values.inbound,
        inboundToken: config.BRIDGE_INBOUND_TOKEN, inboundHmacSecret: config.BRIDGE_INBOUND_HMAC_SECRET,
      });
      process.stdout.write(values.json ? `${JSON.stringify(line, null, 2)}\n` : bridgeTable([line]));
      if (line.inboundUrl && !values.json) process.stderr.write(`inbound URL (shown this once; give it to the platform's outgoing webhook): ${line.inboundUrl}\n`);
      return 0;
    }
    if (action === 'remove') {
      await bridges.remove(values.room, Number(arg));
      process.stderr.write(`removed bridge ${arg}\n`);
      return 0;
    }
    const lines = action === 'show' ? [await bridges.show(values.room, Number(arg))] : await bridges.list(values.room);
    process.stdout.write(values.json ? `${JSON.stringify(action === 'show' ? lines[0] : lines, null, 2)}\n` : bridgeTable(lines));
    return 0;
  } finally {
    await broker.close();
  }
}
