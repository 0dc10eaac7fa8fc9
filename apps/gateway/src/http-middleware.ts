import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import { APP_LOGGER, AppLogger, redactUrl } from '@app/common';
import express, { NextFunction, Request, Response } from 'express';
import { GATEWAY_CONFIG, GatewayConfig } from './config';
import type { V1HttpRequest } from './v1/v1-request';

/** One structured line per request, with secrets redacted from the URL. */
@Injectable()
export class AccessLogMiddleware implements NestMiddleware {
  constructor(@Inject(APP_LOGGER) private readonly logger: AppLogger) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const v1 = (req as V1HttpRequest).v1;
      this.logger.info({
        method: req.method,
        url: redactUrl(req.originalUrl),
        status: res.statusCode,
        ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        tokenId: v1?.token?.id,
        remaining: res.getHeader('X-RateLimit-Remaining'),
      }, 'request');
    });
    next();
  }
}

/**
 * Form and JSON bodies, parsed inside Nest so that parse errors and oversized bodies reach
 * the v1 exception filter (and get the v1 error body) instead of Express's HTML page.
 */
@Injectable()
export class BodyParserMiddleware implements NestMiddleware {
  private readonly parsers: express.RequestHandler[];

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    const limit = config.BODY_LIMIT_BYTES;
    this.parsers = [
      express.urlencoded({ extended: false, limit, parameterLimit: 100 }),
      express.json({ limit }),
    ];
  }

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    for (const parser of this.parsers) {
      await new Promise<void>((resolve, reject) => parser(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
    }
    next();
  }
}
