import { ArgumentsHost, Catch, ExceptionFilter, Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, AppLogger } from '@app/common';
import type { FastifyReply } from 'fastify';
import { logFailure } from '../shared/command-errors';
import { floodHeaders, v2RateLimitHeaders } from './http/v2-headers';
import { V2HttpRequest } from './http/v2-request';
import { ApiError } from '../shared/api-error';
import { toV2Error } from './v2-errors';

/**
 * The error body for whatever a v2 route throws, with the counts' headers taken so far. It
 * sees every error answer of a send whose room's count V2AccessGuard took (the body's guard
 * included: Fastify hands bodies over unread, so none is refused before the guards), and
 * gives that count back first unless the send may have been applied (`refundsFloodCount`).
 */
@Catch()
@Injectable()
export class V2Filter implements ExceptionFilter {
  constructor(@Inject(APP_LOGGER) private readonly logger: AppLogger) {}

  catch(err: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<V2HttpRequest>();
    const res = host.switchToHttp().getResponse<FastifyReply>();
    const error = toV2Error(err);
    logFailure(this.logger, err, error);
    if (res.sent) return;
    const flood = req.v2?.flood;
    if (!flood) return this.answer(req, res, error);
    // Nest does not wait for a filter; Fastify waits for the reply. `refuse` never rejects.
    void flood.refuse(err).then(() => this.answer(req, res, error)).catch((failure: unknown) => {
      this.logger.error({ err: failure }, 'v2 error answer failed');
      if (!res.sent) res.status(500).send();
    });
  }

  private answer(req: V2HttpRequest, res: FastifyReply, error: ApiError): void {
    if (req.v2?.rateLimit) res.headers(v2RateLimitHeaders(req.v2.rateLimit));
    // The room's budget after the refund, when the send was refused.
    if (req.v2?.flood) res.headers(floodHeaders(req.v2.flood.state));
    res.status(error.status).headers(error.headers).type('application/json').send(JSON.stringify(error.body()));
  }
}
