import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import { APP_LOGGER, AppLogger, redactUrl } from '@app/common';
import type { NextFunction, Request, Response } from 'express';
import { requestToken } from './auth/request-token';

/** One structured line per request, with secrets redacted from the URL. */
@Injectable()
export class AccessLogMiddleware implements NestMiddleware {
  constructor(@Inject(APP_LOGGER) private readonly logger: AppLogger) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      this.logger.info({
        method: req.method,
        url: redactUrl(req.originalUrl),
        status: res.statusCode,
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        tokenId: requestToken(req)?.id,
        remaining: res.getHeader('X-RateLimit-Remaining'),
      }, 'request');
    });
    next();
  }
}
