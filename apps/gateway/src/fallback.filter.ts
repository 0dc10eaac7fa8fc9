import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { APP_LOGGER, AppLogger } from '@app/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './shared/api-error';
import { RequestRateLimiter } from './shared/rate-limit/request-rate-limiter';
import { methodsServing } from './shared/routing';
import { V1Error } from './v1/errors';
import { v1MethodServing } from './v1/v1-request.guard';
import { toV1Error, V1Filter } from './v1/v1.filter';
import { V2Filter } from './v2/v2.filter';

export const NOT_FOUND_MESSAGE = 'Not found. The version 1 API lives under /v1/<resource>/<method>.';
export { V2_NOT_FOUND_MESSAGE } from './v2/v2-errors';

const V2_PATH = /^\/v2(\/|$|\?)/i;
/** The v1 controller's route, `/v1/:resource/:action`. */
const V1_METHOD_PATH = /^\/v1\/([^/]+)\/([^/]+)$/;

/**
 * What no API's own filter answered: paths no controller serves (404) and failures outside
 * any API's routes. Each API applies its own filter to its own controllers (`@UseFilters`),
 * so a route added later never gets another API's error body by accident. Here the path's
 * prefix names the API that answers: under /v2 the v2 filter (a 404 pointing at the v2
 * operations), anywhere else the v1 filter, with the 404 this gateway has always answered,
 * pointing at the v1 API. A path served under other methods is not "not found", wherever it
 * is (/v2/room/Ops, /health, /docs/api/v2): 405 naming them, in that API's body, with Allow.
 */
@Catch()
@Injectable()
export class FallbackFilter implements ExceptionFilter {
  private readonly v1: V1Filter;
  private readonly v2: V2Filter;

  constructor(limiter: RequestRateLimiter, @Inject(APP_LOGGER) logger: AppLogger, private readonly adapterHost: HttpAdapterHost) {
    this.v1 = new V1Filter(limiter, logger);
    this.v2 = new V2Filter(logger);
  }

  catch(err: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<FastifyRequest>();
    const notFound = err instanceof HttpException && err.getStatus() === 404;
    const v2 = V2_PATH.test(req.url ?? '');
    if (notFound && !v2 && this.answeredV1Method(req, host)) return;
    if (notFound && this.answeredOtherMethods(req, host, v2)) return;
    if (v2) return this.v2.catch(err, host);
    this.v1.answer(err, notFound ? new V1Error(404, NOT_FOUND_MESSAGE) : toV1Error(err), host);
  }

  /**
   * A verb the router does not route at all (PURGE) on a v1 method's path: the answer the v1
   * guard gives a routed verb (the method's own verbs in Allow, or 404 for no such method),
   * not the verbs of the route that takes every v1 method. True when answered.
   */
  private answeredV1Method(req: FastifyRequest, host: ArgumentsHost): boolean {
    const path = V1_METHOD_PATH.exec((req.url ?? '').split('?', 1)[0]);
    if (!path) return false;
    let name: string;
    try {
      name = `${decodeURIComponent(path[1])}/${decodeURIComponent(path[2])}`;
    } catch {
      return false;
    }
    try {
      v1MethodServing(name, req.method);
      return false;
    } catch (err) {
      this.v1.answer(undefined, toV1Error(err), host);
      return true;
    }
  }

  /**
   * A request no route took, on a path served under other methods: 405 naming them (OPTIONS:
   * 204), and true; false when no method serves the path (or, should a route ever throw a
   * bare 404, this one does), for the 404. The router is asked only here, never on a routed
   * request. Like the 404, this runs before any token is read: nothing is counted, and no
   * rate-limit header goes out (the routes are public, at /docs/api/v2).
   */
  private answeredOtherMethods(req: FastifyRequest, host: ArgumentsHost, v2: boolean): boolean {
    const methods = methodsServing(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), req.url);
    if (methods.length === 0 || methods.includes(req.method)) return false;
    const allow = [...methods, 'OPTIONS'].join(', ');
    // OPTIONS asks what the resource takes (RFC 9110, 9.3.7): the answer is Allow.
    if (req.method === 'OPTIONS') {
      host.switchToHttp().getResponse<FastifyReply>().status(204).header('Allow', allow).send();
      return true;
    }
    const message = `${req.method} is not allowed on ${req.url.split('?', 1)[0]}: it takes ${allow}.`;
    if (v2) this.v2.catch(new ApiError(405, message, { Allow: allow }), host);
    else this.v1.answer(undefined, new V1Error(405, message, { Allow: allow }), host);
    return true;
  }
}
