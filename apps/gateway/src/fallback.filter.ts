import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, AppLogger } from '@app/common';
import type { FastifyReply } from 'fastify';
import { RequestRateLimiter } from './shared/rate-limit/request-rate-limiter';
import { V1Error } from './v1/errors';
import { sendV1Error, toV1Error } from './v1/v1.filter';
import type { V1HttpRequest } from './v1/v1-request';

export const NOT_FOUND_MESSAGE = 'Not found. The version 1 API lives under /v1/<resource>/<method>.';
export const V2_NOT_FOUND_MESSAGE = 'Not found. The version 2 API\'s operations are listed at /docs/api/v2.';

/**
 * What no API's own filter answered: paths no controller serves (404) and failures outside
 * any API's routes. Each API applies its own filter to its own controllers (`@UseFilters`),
 * so a route added later never gets another API's error body by accident. The body here is
 * the one this gateway has always answered with, pointing at the v1 API.
 */
@Catch()
@Injectable()
export class FallbackFilter implements ExceptionFilter {
  constructor(
    private readonly limiter: RequestRateLimiter,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  catch(err: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<V1HttpRequest>();
    const status = err instanceof HttpException ? err.getStatus() : undefined;
    const v2 = /^\/v2(\/|$|\?)/i.test(req.url ?? '');
    const error = status === 404 ? new V1Error(404, v2 ? V2_NOT_FOUND_MESSAGE : NOT_FOUND_MESSAGE) : toV1Error(err);
    if (error.status >= 500) this.logger.error({ err }, 'request failed');
    sendV1Error(req, host.switchToHttp().getResponse<FastifyReply>(), error, this.limiter);
  }
}
