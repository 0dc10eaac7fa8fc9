import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ClientProxy, RmqRecordBuilder } from '@nestjs/microservices';
import { APP_LOGGER, AppLogger } from '@app/common';
import { AuthenticateReplyV1, AuthenticateRequestV1, CommandErrorCode, isCommandError, TokensCommandV1 } from '@app/contracts';
import { firstValueFrom, timeout, TimeoutError } from 'rxjs';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { V1Error } from '../v1/errors';

export const ROOMS_RPC = Symbol('ROOMS_RPC');

const STATUS_OF: Record<CommandErrorCode, number> = {
  not_found: 404,
  invalid: 400,
  conflict: 400,
  forbidden: 403,
  unavailable: 503,
};

/** Request/reply to the rooms service over RabbitMQ, with a deadline and error mapping. */
@Injectable()
export class RoomsClient implements OnApplicationShutdown {
  constructor(
    @Inject(ROOMS_RPC) private readonly rpc: ClientProxy,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  async send<T>(pattern: string, payload: unknown): Promise<T> {
    // The command expires in the queue when we stop waiting for it: a client told 503
    // must not see its message posted later, when a stopped rooms service comes back.
    const record = new RmqRecordBuilder(payload).setOptions({ expiration: String(this.config.COMMAND_TIMEOUT_MS) }).build();
    try {
      return await firstValueFrom(this.rpc.send<T>(pattern, record).pipe(timeout(this.config.COMMAND_TIMEOUT_MS)));
    } catch (err) {
      if (isCommandError(err)) throw new V1Error(STATUS_OF[err.code], err.message);
      if (err instanceof TimeoutError) {
        this.logger.error({ command: pattern }, 'rooms service did not answer in time');
        throw new V1Error(503, 'The rooms service did not answer in time; try again shortly.');
      }
      this.logger.error({ command: pattern, err }, 'command failed');
      throw new V1Error(500, 'The request could not be completed.');
    }
  }

  authenticate(req: AuthenticateRequestV1): Promise<AuthenticateReplyV1> {
    return this.send<AuthenticateReplyV1>(TokensCommandV1.authenticate, req);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rpc.close();
  }
}
