import { commonShape, env, maskedUrl, RpcCommandError, RpcFailure } from '@app/common';
import {
  Actor, BridgeSpec, BridgeTestReply, BridgeView, CommandDefinition, CommandError, CreateBridgeV1, DeleteBridgeV1, DeliveryView, EnableBridgeV1,
  GetBridgeV1, ListBridgesV1, parseRoomRef, RoomRef, TestBridgeV1,
} from '@app/contracts';
import { z } from 'zod';
import { roomsConfigShape } from '../config';
import { describeNotRunning, describeOutage, RoomsCommandQueue } from './addon-commands';
import { DeliveryCommands, describeDeliveryFailure, DispatcherCommandQueue } from './delivery-commands';

/**
 * What `cli bridge` reads: the way to the running rooms service, the public base URL the
 * inbound URL starts with, and the secrets of `bridge add` from the environment (a command
 * line is kept in shell histories and shown in process lists).
 */
export const bridgeCliConfigShape = {
  ...commonShape,
  COMMAND_TIMEOUT_MS: env.positiveInt(10_000),
  PUBLIC_BASE_URL: roomsConfigShape.PUBLIC_BASE_URL,
  BRIDGE_MATRIX_TOKEN: z.string().min(1).optional(),
  BRIDGE_INBOUND_TOKEN: z.string().min(1).optional(),
  BRIDGE_INBOUND_HMAC_SECRET: z.string().min(1).optional(),
};

/** Who the CLI acts as: no token, no user (whoever runs it administers the group), as `cli addon`. */
const CLI_ACTOR: Actor = { label: 'cli' };

/** What `bridge add` was given, as typed (secrets from the environment). */
export interface BridgeAddInput {
  room: string;
  kind: string;
  url: string;
  name?: string;
  events?: string;
  pattern?: string;
  matrixRoom?: string;
  matrixToken?: string;
  inbound: boolean;
  inboundToken?: string;
  inboundHmacSecret?: string;
}

/** The request `bridge add` sends: the same command as POST /v2/room/{room}/bridge, parsed by the service with the same rules. */
export function bridgeSpecOfInput(i: BridgeAddInput): BridgeSpec {
  return {
    kind: i.kind as BridgeSpec['kind'],
    url: i.url,
    ...(i.events !== undefined ? { events: i.events.split(',').map((e) => e.trim()).filter(Boolean) } : {}),
    ...(i.pattern !== undefined ? { pattern: i.pattern } : {}),
    ...(i.name !== undefined ? { name: i.name } : {}),
    ...(i.matrixRoom !== undefined || i.matrixToken !== undefined
      ? { matrix: { room_id: i.matrixRoom ?? '', ...(i.matrixToken !== undefined ? { access_token: i.matrixToken } : {}) } } : {}),
    ...(i.inbound || i.inboundToken !== undefined || i.inboundHmacSecret !== undefined ? {
      inbound: {
        enabled: i.inbound,
        ...(i.inboundToken !== undefined ? { token: i.inboundToken } : {}),
        ...(i.inboundHmacSecret !== undefined ? { hmac_secret: i.inboundHmacSecret } : {}),
      },
    } : {}),
  };
}

/** A bridge as the CLI prints it (never a secret; the URL's query masked, as the service answers it). */
export interface BridgeLine {
  id: number;
  room: number;
  kind: string;
  name: string;
  url: string;
  events: string[];
  enabled: boolean;
  consecutiveFailures: number;
  disabledReason: string | null;
  matrixRoom: string | null;
  inbound: boolean;
  /** Only right after `bridge add` with --inbound: the inbound URL, shown this once. */
  inboundUrl?: string;
}

export const bridgeLineOf = (b: BridgeView, inboundUrl?: string): BridgeLine => ({
  id: b.id, room: b.roomId, kind: b.kind, name: b.name, url: maskedUrl(b.url), events: b.events, enabled: b.enabled,
  consecutiveFailures: b.health.consecutiveFailures, disabledReason: b.disabledReason, matrixRoom: b.matrix?.roomId ?? null,
  inbound: b.inbound.enabled, ...(inboundUrl !== undefined ? { inboundUrl } : {}),
});

/** The table `cli bridge list|show` prints: a header, then one tab-separated line per bridge. */
export function bridgeTable(lines: BridgeLine[]): string {
  const rows = [['ID', 'ROOM', 'KIND', 'NAME', 'URL', 'EVENTS', 'INBOUND', 'ENABLED', 'FAILURES', 'DISABLED_REASON']];
  for (const l of lines) {
    rows.push([
      String(l.id), String(l.room), l.kind, l.name || '-', l.url, l.events.join(','), l.inbound ? 'yes' : 'no', l.enabled ? 'yes' : 'no',
      String(l.consecutiveFailures), l.disabledReason ?? '-',
    ]);
  }
  return rows.map((r) => `${r.join('\t')}\n`).join('');
}

/** `cli bridge test`: what the platform answered, for a person to read (its body as it came, after the line). */
export function bridgeTestText(kind: string, r: BridgeTestReply): string {
  const answer = r.status === null ? 'no answer' : `HTTP ${r.status}`;
  return `${kind} answered ${answer} in ${r.durationMs} ms (${r.outcome})${r.body ? `\n${r.body}` : ''}`;
}

/** The webhook dispatchers' command queue and its name (for what the CLI says when nobody answers). */
export interface DispatcherQueue {
  queue: DispatcherCommandQueue;
  name: string;
}

/**
 * `cli bridge add|list|show|remove|enable|test|deliveries`: the commands of
 * /v2/room/{room}/bridge, sent to the running rooms service as the operator; `test` and
 * `deliveries` then to the webhook dispatchers (`dispatcher`), once the rooms service has
 * found the bridge in the room. Any failure is thrown as an Error worded for the terminal.
 */
export class BridgeCommands {
  constructor(
    private readonly rooms: RoomsCommandQueue, private readonly queue: string, private readonly publicBaseUrl: string,
    private readonly dispatcher?: DispatcherQueue,
  ) {}

  async add(input: BridgeAddInput): Promise<BridgeLine> {
    const room = parseRoomRef(input.room);
    const { bridge, inboundKey } = await this.send(CreateBridgeV1, { actor: CLI_ACTOR, room, ...bridgeSpecOfInput(input) }, { room: input.room }, 'the bridge may have been added');
    return bridgeLineOf(bridge, inboundKey === undefined ? undefined : `${this.publicBaseUrl}/v2/bridge/inbound/${inboundKey}`);
  }

  async list(roomText: string): Promise<BridgeLine[]> {
    const { bridges } = await this.send(ListBridgesV1, { actor: CLI_ACTOR, room: parseRoomRef(roomText), startIndex: 0, limit: 1001 }, { room: roomText });
    return bridges.map((b) => bridgeLineOf(b));
  }

  async show(roomText: string, id: number): Promise<BridgeLine> {
    const { bridge } = await this.send(GetBridgeV1, { actor: CLI_ACTOR, room: parseRoomRef(roomText), id }, { room: roomText, id });
    return bridgeLineOf(bridge);
  }

  async remove(roomText: string, id: number): Promise<void> {
    const room: RoomRef = parseRoomRef(roomText);
    await this.send(DeleteBridgeV1, { actor: CLI_ACTOR, room, id }, { room: roomText, id }, 'the bridge may have been removed');
  }

  async enable(roomText: string, id: number): Promise<BridgeLine> {
    const { bridge } = await this.send(EnableBridgeV1, { actor: CLI_ACTOR, room: parseRoomRef(roomText), id }, { room: roomText, id }, 'the bridge may have been enabled');
    return bridgeLineOf(bridge);
  }

  /** Posts the test through the bridge now (a dispatcher makes the post) and answers what the platform said. */
  async test(roomText: string, id: number): Promise<{ kind: string; reply: BridgeTestReply }> {
    const { bridge, roomName } = await this.send(GetBridgeV1, { actor: CLI_ACTOR, room: parseRoomRef(roomText), id }, { room: roomText, id });
    const dispatcher = this.dispatcherQueue();
    if (!(await dispatcher.queue.served())) throw new Error(`the webhook dispatcher is not running (no answer on ${dispatcher.name}); start it with npm start`);
    try {
      return { kind: bridge.kind, reply: await dispatcher.queue.request(TestBridgeV1, { bridgeId: bridge.id, roomName }) };
    } catch (err) {
      if (err instanceof RpcCommandError) throw new Error(describeDeliveryFailure(err.error, id));
      if (err instanceof RpcFailure) {
        if (err.kind === 'not_sent') throw new Error(`the webhook dispatcher was not reached (${err.message}); nothing was posted`);
        throw new Error(`no answer from the webhook dispatcher on ${dispatcher.name} (${err.message}): the test may have been posted`);
      }
      throw err;
    }
  }

  /** The bridge's deliveries, newest first: the webhook log's command, once the bridge is found in the room. */
  async deliveries(roomText: string, id: number, o: { status?: string; limit?: number } = {}): Promise<DeliveryView[]> {
    await this.send(GetBridgeV1, { actor: CLI_ACTOR, room: parseRoomRef(roomText), id }, { room: roomText, id });
    const dispatcher = this.dispatcherQueue();
    return new DeliveryCommands(dispatcher.queue, dispatcher.name).list(id, o);
  }

  private dispatcherQueue(): DispatcherQueue {
    if (!this.dispatcher) throw new Error('this command needs the webhook dispatchers\' queue');
    return this.dispatcher;
  }

  private async send<Req, Rep>(command: CommandDefinition<Req, Rep>, payload: Req, subject: { id?: number; room?: string }, mayHaveRun?: string): Promise<Rep> {
    if (!(await this.rooms.served())) throw new Error(describeNotRunning(this.queue));
    try {
      return await this.rooms.request(command, payload);
    } catch (err) {
      if (err instanceof RpcCommandError) throw new Error(describeBridgeFailure(err.error, subject));
      if (err instanceof RpcFailure) throw new Error(describeOutage(err, this.queue, mayHaveRun, 'cli bridge list --room ROOM'));
      throw err;
    }
  }
}

/** A refusal of a bridge command, worded with what the user typed (the API's fields as the options that set them). */
export function describeBridgeFailure(error: CommandError, subject: { id?: number; room?: string } = {}): string {
  const { reason, field, detail = {} } = error;
  if (reason === 'bridge_not_found') return `no bridge ${detail.ref ?? subject.id ?? ''} in room ${subject.room ?? ''}`;
  if (reason === 'room_not_found') return `--room: no room ${detail.ref ?? subject.room ?? ''}`;
  const problem = String(detail.problem ?? detail.message ?? reason);
  return `${field ? `${OPTION_OF[field] ?? field}: ` : ''}${problem}`;
}

const OPTION_OF: Readonly<Record<string, string>> = {
  kind: '--kind', url: '--url', name: '--name', events: '--events', pattern: '--pattern', room: '--room',
  matrix: '--matrix-room', 'matrix.room_id': '--matrix-room', 'matrix.access_token': 'BRIDGE_MATRIX_TOKEN',
  'inbound.enabled': '--inbound', 'inbound.token': 'BRIDGE_INBOUND_TOKEN', 'inbound.hmac_secret': 'BRIDGE_INBOUND_HMAC_SECRET',
};
