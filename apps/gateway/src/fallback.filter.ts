import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, AppLogger } from '@app/common';
import type { FastifyRequest } from 'fastify';
import { RequestRateLimiter } from './shared/rate-limit/request-rate-limiter';
import { V1Error } from './v1/errors';
import { toV1Error, V1Filter } from './v1/v1.filter';
import { V2Filter } from './v2/v2.filter';

export const NOT_FOUND_MESSAGE = 'Not found. The version 1 API lives under /v1/<resource>/<method>.';
export { V2_NOT_FOUND_MESSAGE } from './v2/v2-errors';

const V2_PATH = /^\/v2(\/|$|\?)/i;

/**
 * What no API's own filter answered: paths no controller serves (404) and failures outside
 * any API's routes. Each API applies its own filter to its own controllers (`@UseFilters`),
 * so a route added later never gets another API's error body by accident. Here the path's
 * prefix names the API that answers: under /v2 the v2 filter (a 404 pointing at the v2
 * operations), anywhere else the v1 filter, with the 404 this gateway has always answered,
 * pointing at the v1 API.
 */
@Catch()
@Injectable()
export class FallbackFilter implements ExceptionFilter {
  private readonly v1: V1Filter;
  private readonly v2: V2Filter;

  constructor(limiter: RequestRateLimiter, @Inject(APP_LOGGER) logger: AppLogger) {
    this.v1 = new V1Filter(limiter, logger);
    this.v2 = new V2Filter(logger);
  }

  catch(err: unknown, host: ArgumentsHost): void {
    if (V2_PATH.test(host.switchToHttp().getRequest<FastifyRequest>().url ?? '')) return this.v2.catch(err, host);
    const notFound = err instanceof HttpException && err.getStatus() === 404;
    this.v1.answer(err, notFound ? new V1Error(404, NOT_FOUND_MESSAGE) : toV1Error(err), host);
  }
}
