import { ArgumentsHost, Catch, ExceptionFilter, Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, AppLogger } from '@app/common';
import type { FastifyReply } from 'fastify';
import { logFailure } from '../shared/command-errors';
import { floodHeaders, v2RateLimitHeaders } from './http/v2-headers';
import { V2HttpRequest } from './http/v2-request';
import { toV2Error } from './v2-errors';

/** The error body for whatever a v2 route throws, with the counts' headers taken so far. */
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
    if (req.v2?.rateLimit) res.headers(v2RateLimitHeaders(req.v2.rateLimit));
    if (req.v2?.flood) res.headers(floodHeaders(req.v2.flood));
    res.status(error.status).headers(error.headers).type('application/json').send(JSON.stringify(error.body()));
  }
}
