import { Inject, Injectable } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { RpcClient } from '@app/common';
import type { CommandDefinition } from '@app/contracts';
import { DISPATCHER_RPC } from './di-tokens';
import { RoomsOutage, sendCommand } from './rooms-client';

/** The webhook dispatcher did not answer: told as the rooms service's outage is (503 when nothing was done, else 504). */
export class DispatcherOutage extends RoomsOutage {
  constructor(...args: ConstructorParameters<typeof RoomsOutage>) {
    super(...args);
    this.name = 'DispatcherOutage';
  }

  override get service(): string {
    return 'webhook dispatcher';
  }
}

/**
 * The gateway's way to the webhook dispatchers' command queue (the delivery log): one broker
 * round trip per command (sendCommand), any replica answering; an outage is a `DispatcherOutage`.
 */
@Injectable()
export class DispatcherClient {
  constructor(@Inject(DISPATCHER_RPC) private readonly rpc: RpcClient) {}

  /** `trace`: the request's (its payloads have no actor to carry it). */
  send<Req, Rep>(command: CommandDefinition<Req, Rep>, payload: Req, trace?: Context): Promise<Rep> {
    return sendCommand(this.rpc, command, payload, (...args) => new DispatcherOutage(...args), trace);
  }
}
