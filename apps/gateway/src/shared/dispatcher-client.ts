import { Inject, Injectable } from '@nestjs/common';
import { RpcClient, RpcFailure } from '@app/common';
import type { CommandDefinition } from '@app/contracts';
import { DISPATCHER_RPC } from './di-tokens';
import { RoomsOutage } from './rooms-client';

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
 * round trip per command, any replica answering. Refusals come back as `RpcCommandError`,
 * outages as `DispatcherOutage`, worded by each API's filter like the rooms service's.
 */
@Injectable()
export class DispatcherClient {
  constructor(@Inject(DISPATCHER_RPC) private readonly rpc: RpcClient) {}

  async send<Req, Rep>(command: CommandDefinition<Req, Rep>, payload: Req): Promise<Rep> {
    try {
      return await this.rpc.request(command, payload);
    } catch (err) {
      if (err instanceof RpcFailure) throw new DispatcherOutage(err.kind, command.pattern, !command.query, err);
      throw err;
    }
  }
}
