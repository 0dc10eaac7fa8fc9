import { AmqpBroker, commonShape, createLogger, env, loadConfigOrExit, maskedUrl, RpcCommandError, RpcFailure } from '@app/common';
import {
  brokerNames, CommandDefinition, CommandError, deliveryField, DeliveryDetailView, DeliveryView, GetDeliveryV1, ListDeliveriesV1,
  isStorableInstant, problemOf, RecoverDeliveriesV1, RedeliverV1, resendRefusal, ResendAction, ResendTarget,
} from '@app/contracts';
import { WebhookCommands } from './webhook-commands';

/**
 * `cli webhook deliveries|delivery|redeliver|recover`: the delivery log of the running
 * webhook dispatchers, through their command queue. An operator's tool: no token, no actor,
 * every webhook (the HTTP API checks who may see a webhook before it asks the dispatcher).
 */

export const DELIVERY_ACTIONS = ['deliveries', 'delivery', 'redeliver', 'recover'] as const;
export type DeliveryAction = (typeof DELIVERY_ACTIONS)[number];

export const DELIVERY_USAGE = `  cli webhook deliveries WEBHOOK-ID [--status S] [--limit N]
                                                              a webhook's deliveries, newest first (default 50, at most 1000)
  cli webhook delivery DELIVERY-ID                            one delivery: the request as sent, every attempt, the reply
  cli webhook redeliver DELIVERY-ID                           one more attempt now, with the same webhook-id
  cli webhook recover WEBHOOK-ID --since TIME                 sends again the webhook's failed deliveries since TIME
                                                              (ISO 8601, or 30m, 2h, 3d ago)`;

export const DELIVERY_NOTE = `webhook deliveries|delivery|redeliver|recover send their command to the running webhook
dispatcher through AMQP_URL and BROKER_NAMESPACE (waiting COMMAND_TIMEOUT_MS, default 10000).`;

/** What `cli webhook deliveries|...` reads: only the way to the running dispatchers. */
export const deliveryCliConfigShape = {
  ...commonShape,
  COMMAND_TIMEOUT_MS: env.positiveInt(10_000),
};

/** The dispatchers' command queue, as the CLI needs it (an RpcClient). */
export interface DispatcherCommandQueue {
  /** Whether a dispatcher consumes the queue. */
  served(): Promise<boolean>;
  request<Req, Rep>(command: CommandDefinition<Req, Rep>, payload: Req): Promise<Rep>;
}

/** A mistake in what was typed: the CLI prints it with the usage. */
export class DeliveryUsageError extends Error {}

const LIST_DEFAULT = 50;
const LIST_MAX = 1000;
const RELATIVE = /^(\d{1,6})\s*(s|m|h|d)$/i;
const ISO_LIKE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/i;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: an ISO 8601 instant as it is, or a time ago (`30m`, `2h`, `3d`) as the instant it names. */
export function sinceOf(text: string, now: Date): string {
  const relative = RELATIVE.exec(text.trim());
  if (relative) {
    const since = new Date(now.getTime() - Number(relative[1]) * UNIT_MS[relative[2].toLowerCase()]);
    if (!isStorableInstant(since)) throw new DeliveryUsageError(`--since: ${text.trim()} ago is before 0001-01-01T00:00:00Z`);
    return since.toISOString();
  }
  const problem = problemOf(deliveryField.instant, text);
  // A time written as one but out of range (year 0, an offset of +18:00) is told its rule.
  if (problem && ISO_LIKE.test(text)) throw new DeliveryUsageError(`--since: ${problem}`);
  if (problem) throw new DeliveryUsageError(`--since: must be an ISO 8601 time (2025-03-01T12:00:00Z) or a time ago such as 30m, 2h or 3d (got "${text.slice(0, 50)}")`);
  return text;
}

const webhookIdOf = (text: string | undefined, action: string): number => {
  if (!/^\d{1,10}$/.test(text ?? '') || !deliveryField.webhookId.safeParse(Number(text)).success) {
    throw new DeliveryUsageError(`webhook ${action} needs the numeric webhook id`);
  }
  return Number(text);
};

const deliveryIdOf = (text: string | undefined, action: string): string => {
  if (!deliveryField.deliveryId.safeParse(text ?? '').success) {
    throw new DeliveryUsageError(`webhook ${action} needs a delivery id (the UUID a receiver got as webhook-id)`);
  }
  return text!.toLowerCase();
};

/**
 * Whether a webhook with this id is registered, as the rooms service knows it; undefined when
 * it cannot tell (not running, not answering).
 */
export type WebhookLookup = (webhookId: number) => Promise<boolean | undefined>;

/**
 * The webhook with this id as the rooms service has it (null: none registered), or undefined
 * when it cannot tell: a disabled webhook's deliveries are not sent again.
 */
export type WebhookStateLookup = (webhookId: number) => Promise<ResendTarget | null | undefined>;

/** `--limit` of a list of deliveries (`webhook deliveries`, `bridge deliveries`): 1 to 1000, or the default when absent. */
export function limitOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,4}$/.test(text) || Number(text) < 1 || Number(text) > LIST_MAX) throw new DeliveryUsageError(`--limit: must be a whole number from 1 to ${LIST_MAX}`);
  return Number(text);
}

export class DeliveryCommands {
  constructor(
    private readonly dispatcher: DispatcherCommandQueue,
    private readonly queue: string,
    /**
     * Asked only when a webhook's log has nothing to show: the dispatcher keeps the log of a
     * deleted webhook (an operator may want it) and answers any id, so a mistyped id would read
     * as "no deliveries".
     */
    private readonly registered: WebhookLookup = async () => undefined,
    private readonly state: WebhookStateLookup = async () => undefined,
  ) {}

  async list(webhookId: number, o: { status?: string; limit?: number } = {}): Promise<DeliveryView[]> {
    const status = o.status === undefined ? undefined : deliveryField.status.safeParse(o.status);
    if (status && !status.success) throw new DeliveryUsageError(`--status: must be one of ${deliveryField.status.options.join(', ')}`);
    const limit = o.limit ?? LIST_DEFAULT;
    const { deliveries } = await this.send(ListDeliveriesV1, {
      webhookId, startIndex: 0, limit, ...(status?.success ? { status: status.data } : {}),
    }, webhookId);
    if (deliveries.length === 0) await this.mustBeKnown(webhookId);
    // A position is for the page after an item; the CLI reads one page, and --json shows the views as they were.
    return deliveries.map(({ position: _position, ...view }) => view);
  }

  async show(deliveryId: string): Promise<DeliveryDetailView> {
    return (await this.send(GetDeliveryV1, { delivery: deliveryId }, deliveryId)).delivery;
  }

  async redeliver(deliveryId: string): Promise<{ deliveryId: string; attempt: number }> {
    // The dispatcher knows the delivery's webhook; the rooms service whether it is enabled.
    await this.refuseIfDisabled((await this.show(deliveryId)).webhookId, 'redeliver');
    return this.send(RedeliverV1, { delivery: deliveryId }, deliveryId, 'the attempt may have been queued; see cli webhook delivery');
  }

  async recover(webhookId: number, since: string): Promise<number> {
    await this.refuseIfDisabled(webhookId, 'recover');
    const { count } = await this.send(RecoverDeliveriesV1, { webhookId, since }, webhookId,
      'deliveries may have been queued again; see cli webhook deliveries');
    if (count === 0) await this.mustBeKnown(webhookId);
    return count;
  }

  /**
   * Throws, before anything is queued, when the webhook is disabled: its attempts would only be
   * recorded as failed (\`webhook disabled\`). When the rooms service cannot tell, the command goes.
   */
  private async refuseIfDisabled(webhookId: number, action: ResendAction): Promise<void> {
    const webhook = await this.state(webhookId).catch(() => undefined);
    const refusal = webhook ? resendRefusal(webhook, action, `cli webhook enable ${webhookId}`) : undefined;
    if (refusal) throw new Error(refusal);
  }

  /** Throws when the webhook is not registered (its log, just read, being empty too). */
  private async mustBeKnown(webhookId: number): Promise<void> {
    if ((await this.registered(webhookId).catch(() => undefined)) === false) {
      throw new Error(`no webhook ${webhookId}: none is registered with that id, and no deliveries of one are recorded (see cli webhook list)`);
    }
  }

  /** `mayHaveRun`: what a change sent but not answered may have done (none for a query). */
  private async send<Req, Rep>(command: CommandDefinition<Req, Rep>, payload: Req, subject: string | number, mayHaveRun?: string): Promise<Rep> {
    // A command sent to a queue nobody consumes would only time out: say why at once.
    if (!(await this.dispatcher.served())) {
      throw new Error(`the webhook dispatcher is not running (no answer on ${this.queue}); start it with npm start`);
    }
    try {
      return await this.dispatcher.request(command, payload);
    } catch (err) {
      if (err instanceof RpcCommandError) throw new Error(describeDeliveryFailure(err.error, subject));
      if (err instanceof RpcFailure) {
        if (err.kind === 'not_sent') throw new Error(`the webhook dispatcher was not reached (${err.message}); nothing was changed`);
        const what = `no answer from the webhook dispatcher on ${this.queue} (${err.message})`;
        throw new Error(mayHaveRun ? `${what}: the outcome is unknown, ${mayHaveRun}` : what);
      }
      throw err;
    }
  }
}

/** A refusal of a delivery log command, worded for the terminal. */
export function describeDeliveryFailure(error: CommandError, subject: string | number): string {
  const { reason, field, detail = {} } = error;
  if (reason === 'delivery_not_found') return `no delivery ${detail.ref ?? subject}`;
  if (error.code === 'unavailable') return 'the webhook dispatcher could not do it now (its database or broker is unavailable); nothing was changed';
  const problem = String(detail.problem ?? detail.message ?? reason);
  return field === 'since' ? `--since: ${problem}` : `${field ? `${field}: ` : ''}${problem}`;
}

const pad = (rows: string[][]): string => {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd()).join('\n');
};

/** What the last attempt came to, in a word or two. */
const lastOf = (d: DeliveryView): string => {
  const a = d.lastAttempt;
  if (!a) return '-';
  const text = a.error ?? (a.statusCode !== null ? `HTTP ${a.statusCode}` : '-');
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
};

/** `webhook deliveries`: one line per delivery, aligned. */
export function deliveriesTable(rows: readonly DeliveryView[]): string {
  return pad([
    ['ID', 'EVENT', 'STATUS', 'ATTEMPTS', 'LAST', 'CREATED'],
    ...rows.map((d) => [d.id, d.event, d.status, String(d.attempts), lastOf(d), d.created]),
  ]);
}

/** `webhook delivery`: everything the log knows of one delivery, for a person to read. */
export function deliveryText(d: DeliveryDetailView): string {
  const lines = [
    `delivery  ${d.id}  (the webhook-id header its receiver got)`,
    `webhook   ${d.webhookId}`,
    `event     ${d.event}`,
    `status    ${d.status}, ${d.attempts} attempt${d.attempts === 1 ? '' : 's'}${d.nextAttemptAt ? `, next at ${d.nextAttemptAt}` : ''}`,
    `created   ${d.created}`,
    `reply     ${d.reply.messageId ? `posted as message ${d.reply.messageId}` : d.reply.error ? `not posted: ${d.reply.error}` : '-'}`,
    '',
    d.request.url ? `POST ${maskedUrl(d.request.url)}` : 'POST (the webhook is gone: its URL and headers are not known)',
    ...Object.entries(d.request.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    '',
    d.request.body,
  ];
  for (const a of d.attemptLog) {
    lines.push('', `attempt ${a.attempt}  ${a.at}  ${a.statusCode !== null ? `HTTP ${a.statusCode}` : 'no answer'}  ${a.durationMs} ms`);
    if (a.error) lines.push(`  error: ${a.error}`);
    for (const [k, v] of Object.entries(a.responseHeaders ?? {})) lines.push(`  ${k}: ${v}`);
    if (a.responseBody) lines.push(`  ${a.responseBody.replace(/\n/g, '\n  ')}`);
  }
  return lines.join('\n');
}

/** The options of cli.ts's parser that these commands read. */
export interface DeliveryOptions {
  status?: string;
  limit?: string;
  since?: string;
  json: boolean;
}

/**
 * Runs one of the four commands against the running dispatchers; prints to `out`. Arguments
 * are checked before anything is connected (which options each command takes: cli/options.ts).
 */
export async function runDeliveryCommand(
  action: DeliveryAction, arg: string | undefined, o: DeliveryOptions, out: (text: string) => void, now = new Date(),
): Promise<number> {
  const limit = limitOf(o.limit);
  const target = action === 'deliveries' || action === 'recover' ? webhookIdOf(arg, action) : deliveryIdOf(arg, action);
  if (action === 'recover' && o.since === undefined) throw new DeliveryUsageError('webhook recover needs --since (an ISO 8601 time, or 30m, 2h, 3d ago)');
  const since = o.since !== undefined ? sinceOf(o.since, now) : undefined;

  const config = loadConfigOrExit('cli', deliveryCliConfigShape);
  const names = brokerNames(config.BROKER_NAMESPACE);
  const logger = createLogger('cli', 'warn', 2);
  const broker = await AmqpBroker.connect(config.AMQP_URL, names, logger, 2000).catch((err: Error) => {
    throw new Error(`cannot reach RabbitMQ (AMQP_URL): ${err.message}; the webhook dispatcher takes delivery commands through it`);
  });
  try {
    const rooms = new WebhookCommands(await broker.createRpcClient(names.roomsCommandQueue, config.COMMAND_TIMEOUT_MS), names.roomsCommandQueue);
    const commands = new DeliveryCommands(
      await broker.createRpcClient(names.dispatcherCommandQueue, config.COMMAND_TIMEOUT_MS), names.dispatcherCommandQueue,
      (id) => rooms.isRegistered(id),
      (id) => rooms.find(id),
    );
    switch (action) {
      case 'deliveries': {
        const rows = await commands.list(target as number, { status: o.status, limit });
        out(o.json ? JSON.stringify(rows, null, 2) : deliveriesTable(rows));
        return 0;
      }
      case 'delivery': {
        const d = await commands.show(target as string);
        out(o.json ? JSON.stringify(d, null, 2) : deliveryText(d));
        return 0;
      }
      case 'redeliver': {
        const queued = await commands.redeliver(target as string);
        out(`redelivery of ${queued.deliveryId} queued as attempt ${queued.attempt}`);
        return 0;
      }
      case 'recover': {
        const count = await commands.recover(target as number, since!);
        out(`${count} failed deliver${count === 1 ? 'y' : 'ies'} of webhook ${target} since ${since} queued again`);
        return 0;
      }
    }
  } finally {
    await broker.close();
  }
}
