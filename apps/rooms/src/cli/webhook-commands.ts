import { maskedUrl, RpcCommandError, RpcFailure } from '@app/common';
import { CommandDefinition, CommandError, EnableWebhookV1, ListAllWebhooksV1, parseRoomRef, WebhookView } from '@app/contracts';
import { describeNotRunning, describeOutage, RoomsCommandQueue } from './addon-commands';

/** A webhook as `cli webhook list` shows it: its URL masked (no credentials, the query's values `***`), as to anyone but its creator. */
export interface WebhookLine {
  id: number;
  room: number | null;
  name: string;
  event: string;
  url: string;
  enabled: boolean;
  consecutiveFailures: number;
  failingSince: string | null;
  disabledReason: string | null;
}

export const webhookLineOf = (w: WebhookView): WebhookLine => ({
  id: w.id,
  room: w.roomId,
  name: w.name,
  event: w.event,
  url: maskedUrl(w.url),
  enabled: w.enabled,
  consecutiveFailures: w.health.consecutiveFailures,
  failingSince: w.health.failingSince,
  disabledReason: w.disabledReason,
});

/** The table `cli webhook list` prints: a header, then one tab-separated line per webhook. */
export function webhookTable(lines: WebhookLine[]): string {
  const rows = [['ID', 'ROOM', 'NAME', 'EVENT', 'URL', 'ENABLED', 'FAILURES', 'FAILING_SINCE', 'DISABLED_REASON']];
  for (const l of lines) {
    rows.push([
      String(l.id), l.room === null ? 'group' : String(l.room), l.name || '-', l.event, l.url, l.enabled ? 'yes' : 'no',
      String(l.consecutiveFailures), l.failingSince ?? '-', l.disabledReason ?? '-',
    ]);
  }
  return rows.map((r) => `${r.join('\t')}\n`).join('');
}

/**
 * `cli webhook list|enable`: operator commands (no token, no user), sent to the running
 * rooms service: enabling is a registration change, which the service makes in force on
 * every dispatcher before it answers. Any failure is thrown as an Error worded for the terminal.
 */
export class WebhookCommands {
  constructor(private readonly rooms: RoomsCommandQueue, private readonly queue: string) {}

  /** Every webhook with its health, group-wide ones included; or those of one room (`--room`). */
  async list(room?: string): Promise<WebhookLine[]> {
    const { webhooks } = await this.send(ListAllWebhooksV1, room ? { room: parseRoomRef(room) } : {}, { room });
    return webhooks.map(webhookLineOf);
  }

  /** Whether a webhook with this id is registered (any room, group-wide ones too); undefined when the rooms service cannot tell. */
  async isRegistered(id: number): Promise<boolean | undefined> {
    const found = await this.find(id);
    return found === undefined ? undefined : found !== null;
  }

  /** The webhook with this id (any room, group-wide ones too), null when none is; undefined when the rooms service cannot tell. */
  async find(id: number): Promise<WebhookView | null | undefined> {
    if (!(await this.rooms.served())) return undefined;
    try {
      const { webhooks } = await this.rooms.request(ListAllWebhooksV1, { id });
      return webhooks.find((w) => w.id === id) ?? null;
    } catch {
      return undefined;
    }
  }

  /** Enables a webhook again (any, by id) and resets its health. */
  async enable(id: number): Promise<WebhookLine> {
    const { webhook } = await this.send(EnableWebhookV1, { operator: true, webhook: { id } }, { id }, 'the webhook may have been enabled');
    return webhookLineOf(webhook);
  }

  /** `mayHaveRun`: what a change sent but not answered may have done (none for a query). */
  private async send<Req, Rep>(command: CommandDefinition<Req, Rep>, payload: Req, subject: { id?: number; room?: string }, mayHaveRun?: string): Promise<Rep> {
    // A command sent to a queue nobody consumes would only time out: say why at once.
    if (!(await this.rooms.served())) throw new Error(describeNotRunning(this.queue));
    try {
      return await this.rooms.request(command, payload);
    } catch (err) {
      if (err instanceof RpcCommandError) throw new Error(describeWebhookFailure(err.error, subject));
      if (err instanceof RpcFailure) throw new Error(describeOutage(err, this.queue, mayHaveRun, 'cli webhook list'));
      throw err;
    }
  }
}

/** A refusal of a webhook command, worded with what the user typed. */
export function describeWebhookFailure(error: CommandError, subject: { id?: number; room?: string } = {}): string {
  const { reason, field, detail = {} } = error;
  if (reason === 'webhook_not_found') return `no webhook ${detail.ref ?? subject.id ?? ''}`;
  if (reason === 'room_not_found') return `--room: no room ${detail.ref ?? subject.room ?? ''}`;
  const problem = String(detail.problem ?? detail.message ?? reason);
  if (field === 'room' && subject.room !== undefined) return `--room: ${problem}`;
  if (field === 'webhook' && subject.id !== undefined) return `webhook ${subject.id}: ${problem}`;
  return `${field ? `${field}: ` : ''}${problem}`;
}
