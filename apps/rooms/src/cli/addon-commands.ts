import { bareUrl, commonShape, env, RpcCommandError, RpcFailure } from '@app/common';
import {
  Actor, AddonInstallationView, CommandDefinition, CommandError, InstallAddonV1, ListAddonsV1, parseRoomRef, UninstallAddonV1,
} from '@app/contracts';

/**
 * What `cli addon` reads: only the way to the running rooms service. The service makes the
 * outbound requests with its own settings (WEBHOOK_ALLOWED_NETWORKS, ADDON_HTTP_TIMEOUT_MS).
 */
export const addonCliConfigShape = {
  ...commonShape,
  /** As the gateway's: an install makes two add-on calls, each within the service's ADDON_HTTP_TIMEOUT_MS. */
  COMMAND_TIMEOUT_MS: env.positiveInt(10_000),
};

/** The rooms service's command queue, as the CLI needs it (an RpcClient). */
export interface RoomsCommandQueue {
  /** Whether a rooms service consumes the queue. */
  served(): Promise<boolean>;
  request<Req, Rep>(command: CommandDefinition<Req, Rep>, payload: Req): Promise<Rep>;
}

/** Who the CLI acts as: no token, no user, no room (whoever runs it administers the group). */
const CLI_ACTOR: Actor = { label: 'cli' };

/** The installation as `cli addon install` prints it (one JSON line). */
export interface InstalledLine {
  id: number;
  oauth_id: string;
  key: string;
  room_id: number | null;
}

/** What an add-on command was about, to word its refusal with what the user typed. */
interface Subject {
  url?: string;
  id?: number;
  room?: string;
}

/**
 * `cli addon install|list|uninstall`: the rooms service's own commands, sent to the running
 * service, so that its configuration governs every outbound request. Any failure is thrown
 * as an Error worded for the terminal.
 */
export class AddonCommands {
  constructor(private readonly rooms: RoomsCommandQueue, private readonly queue: string) {}

  async install(url: string, room?: string): Promise<InstalledLine> {
    const { installation: i } = await this.send(InstallAddonV1, {
      actor: CLI_ACTOR, url, ...(room ? { room: parseRoomRef(room) } : {}),
    }, { url, room }, 'the add-on may have been installed');
    return { id: i.id, oauth_id: i.oauthClientId, key: i.key, room_id: i.roomId };
  }

  async list(): Promise<AddonInstallationView[]> {
    return (await this.send(ListAddonsV1, { actor: CLI_ACTOR, startIndex: 0, limit: 1001 }, {})).installations;
  }

  async uninstall(id: number): Promise<void> {
    await this.send(UninstallAddonV1, { actor: CLI_ACTOR, id }, { id }, 'the add-on may have been uninstalled');
  }

  /** `mayHaveRun`: what a change sent but not answered may have done (none for a query). */
  private async send<Req, Rep>(command: CommandDefinition<Req, Rep>, payload: Req, subject: Subject, mayHaveRun?: string): Promise<Rep> {
    // A command sent to a queue nobody consumes would only time out: say why at once.
    if (!(await this.rooms.served())) throw new Error(describeNotRunning(this.queue));
    try {
      return await this.rooms.request(command, payload);
    } catch (err) {
      if (err instanceof RpcCommandError) throw new Error(describeAddonFailure(err.error, subject));
      if (err instanceof RpcFailure) throw new Error(describeOutage(err, this.queue, mayHaveRun));
      throw err;
    }
  }
}

export const describeNotRunning = (queue: string): string =>
  `the rooms service is not running (no answer on ${queue}); start it with npm start`;

/**
 * The rooms service did not answer: `not_sent` certainly changed nothing; `no_answer` on a
 * change may have (`check`: the command that tells).
 */
export function describeOutage(failure: RpcFailure, queue: string, mayHaveRun?: string, check = 'cli addon list'): string {
  if (failure.kind === 'not_sent') return `the rooms service was not reached (${failure.message}); nothing was changed`;
  const what = `no answer from the rooms service on ${queue} (${failure.message})`;
  return mayHaveRun ? `${what}: the outcome is unknown, ${mayHaveRun}; see ${check}` : what;
}

/** A refusal of an add-on command, worded for the terminal. */
export function describeAddonFailure(error: CommandError, subject: Subject = {}): string {
  const { reason, field, detail = {} } = error;
  switch (reason) {
    case 'addon_not_found': return `no add-on installation ${detail.ref ?? ''}`;
    case 'room_not_found': return `--room: no room ${detail.ref ?? ''}`;
    case 'addon_descriptor_invalid': return `add-on descriptor ${bareUrl(String(detail.url ?? ''))}: ${detail.problem ?? 'is invalid'}`;
    case 'addon_not_installable': return `the add-on cannot be installed: ${detail.problem ?? 'refused'}`;
    case 'addon_callback_failed': return `the add-on's installation callback ${bareUrl(String(detail.url ?? ''))} failed (${detail.problem ?? 'no answer'}); nothing was installed`;
    default: break;
  }
  const problem = String(detail.problem ?? detail.message ?? reason);
  // The service checks the fields before anything else: word them as the arguments they came from.
  if (reason === 'rule' && field === 'url' && subject.url !== undefined) return `add-on descriptor ${bareUrl(subject.url)}: ${problem}`;
  if (reason === 'rule' && field === 'id' && subject.id !== undefined) return `no add-on installation ${subject.id}`;
  if (reason === 'rule' && field === 'room' && subject.room !== undefined) return `--room: ${problem}`;
  return `${field ? `${field}: ` : ''}${problem}`;
}
