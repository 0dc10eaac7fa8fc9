import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import { APP_LOGGER, AppLogger } from '@app/common';
import type { Response } from 'express';
import { currentWindowEnd, rateLimitHeaders } from '../auth/rate-limit';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { V1Error } from './errors';
import { render } from './render';
import { requestedFormat, V1HttpRequest } from './v1-request';

/** Turns anything thrown into the v1 error body, in the format the client asked for. */
export function toV1Error(err: unknown): V1Error {
  if (err instanceof V1Error) return err;
  if (err instanceof HttpException) {
    const status = err.getStatus();
    if (status === 404) return new V1Error(404, 'Not found. The version 1 API lives under /v1/<resource>/<method>.');
    return new V1Error(status, err.message);
  }
  const e = err as { type?: string; status?: number; statusCode?: number; limit?: number };
  if (e?.type === 'entity.too.large') return new V1Error(413, `The request body is larger than the ${e.limit ?? ''} byte limit.`.replace('  ', ' '));
  if (e?.type === 'entity.parse.failed') return new V1Error(400, 'The request body could not be parsed.');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return new V1Error(415, 'The request body encoding is not supported.');
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return new V1Error(status, 'The request could not be read.');
  return new V1Error(500, 'The request could not be completed.');
}

@Catch()
export class V1ExceptionFilter implements ExceptionFilter {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  catch(err: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<V1HttpRequest>();
    const res = host.switchToHttp().getResponse<Response>();
    const error = toV1Error(err);
    if (error.status >= 500 && !(err instanceof V1Error)) this.logger.error({ err }, 'unhandled error');
    if (res.headersSent) return;
    if (!res.getHeader('X-RateLimit-Limit')) {
      // Responses that counted nothing (no or unknown token) still carry the headers.
      res.set(rateLimitHeaders({
        limit: this.config.RATE_LIMIT_MAX,
        remaining: this.config.RATE_LIMIT_MAX,
        reset: currentWindowEnd(this.config.RATE_LIMIT_WINDOW_SECONDS),
      }));
    }
    const out = render(requestedFormat(req), error.body());
    res.status(error.status).set(error.headers).type(out.contentType).send(out.body);
  }
}
