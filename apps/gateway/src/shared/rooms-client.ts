import { Inject, Injectable } from '@nestjs/common';
import { RpcClient, RpcFailure } from '@app/common';
import type { Context } from '@opentelemetry/api';
import type { CommandDefinition } from '@app/contracts';
import { ROOMS_RPC } from './di-tokens';

/**
 * The rooms service did not answer. What the client may be told depends on what we know:
 * `not_sent` means the command certainly did not run; `no_answer` on a command that changes
 * state means it may have run (retrying could apply it twice); on a query it does not matter.
 */
export class RoomsOutage extends Error {
  constructor(
    readonly kind: RpcFailure['kind'],
    readonly command: string,
    readonly changesState: boolean,
    readonly failure: RpcFailure,
  ) {
    super(`${command}: ${failure.message}`);
    this.name = 'RoomsOutage';
  }

  /** True when the command certainly left no trace: the client may simply retry. */
  get nothingApplied(): boolean {
    return this.kind === 'not_sent' || !this.changesState;
  }

  /** Which service did not answer, as the client is told (the dispatcher's outage extends this one). */
  get service(): string {
    return 'rooms service';
  }
}

/**
 * Sends a command to a service over the broker: one round trip. A refusal comes back as
 * `RpcCommandError` (an API-neutral CommandError, worded by each API's filter); a broker
 * failure as the outage `outage` makes, which says whether the command may have run.
 */
export async function sendCommand<Req, Rep>(
  rpc: RpcClient, command: CommandDefinition<Req, Rep>, payload: Req,
  outage: (...args: ConstructorParameters<typeof RoomsOutage>) => RoomsOutage, trace?: Context,
): Promise<Rep> {
  try {
    return await rpc.request(command, payload, trace);
  } catch (err) {
    if (err instanceof RpcFailure) throw outage(err.kind, command.pattern, !command.query, err);
    throw err;
  }
}

/** The gateway's one way to the rooms service; an outage is a `RoomsOutage`. */
@Injectable()
export class RoomsClient {
  constructor(@Inject(ROOMS_RPC) private readonly rpc: RpcClient) {}

  /** `trace`: the request's, where the payload's actor does not carry it (see carryTrace). */
  send<Req, Rep>(command: CommandDefinition<Req, Rep>, payload: Req, trace?: Context): Promise<Rep> {
    return sendCommand(this.rpc, command, payload, (...args) => new RoomsOutage(...args), trace);
  }
}
