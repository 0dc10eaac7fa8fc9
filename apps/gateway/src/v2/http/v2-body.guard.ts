import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import bodyParser from 'body-parser';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../../shared/api-error';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { JSON_BODY_ONLY, RAW_BODY, SIGNED_BODY } from './route-options';
import { V2HttpRequest } from './v2-request';

type RawParser = (req: IncomingMessage, res: unknown, next: (err?: unknown) => void) => void;

const run = (parser: RawParser, req: IncomingMessage, res: unknown) =>
  new Promise<void>((resolve, reject) => parser(req, res, (err?: unknown) => (err ? reject(err) : resolve())));

/**
 * Last step before a v2 handler (after the token and its scopes): reads the body (Fastify leaves bodies unread, see
 * bootstrap.ts) so that a body error gets the v2 error body. JSON, and form-encoded for the
 * clients that send it; uploads as bytes. Any JSON value is read: whether it is the object
 * an operation needs is the operation's schema's call (400 naming the rule).
 */
@Injectable()
export class V2BodyGuard implements CanActivate {
  private readonly json: RawParser;
  private readonly form: RawParser;
  private readonly raw: RawParser;
  private readonly bytes: RawParser;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig, private readonly reflector: Reflector) {
    // A body without a content type is read as JSON: what v2 clients send when they forget it.
    this.json = bodyParser.json({ limit: config.BODY_LIMIT_BYTES, strict: false, type: (req) => isJson(req.headers['content-type']) }) as RawParser;
    this.form = bodyParser.urlencoded({ extended: false, limit: config.BODY_LIMIT_BYTES, parameterLimit: 100 }) as RawParser;
    // Room for the multipart framing around a file of the largest size: the upload's parser
    // holds the file itself to FILE_MAX_BYTES exactly.
    this.raw = bodyParser.raw({ limit: config.FILE_MAX_BYTES + 64 * 1024, type: () => true }) as RawParser;
    this.bytes = bodyParser.raw({ limit: config.BODY_LIMIT_BYTES, type: () => true }) as RawParser;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<V2HttpRequest>();
    const res = http.getResponse<FastifyReply>().raw;
    req.v2 ??= {};
    if (req.method === 'GET' || req.method === 'HEAD') return true;
    if (this.reflector.get<boolean>(RAW_BODY, context.getHandler())) {
      await run(this.raw, req.raw, res);
    } else if (this.reflector.get<unknown>(SIGNED_BODY, context.getHandler())) {
      await run(this.bytes, req.raw, res);
    } else {
      await run(this.json, req.raw, res);
      if (!this.reflector.get<boolean>(JSON_BODY_ONLY, context.getHandler())) await run(this.form, req.raw, res);
    }
    const body = (req.raw as IncomingMessage & { body?: unknown }).body;
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && body === undefined) {
      throw new ApiError(415, `The request body must be JSON (Content-Type: application/json); got ${String(req.headers['content-type'])}.`);
    }
    req.body = body;
    return true;
  }
}

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return true;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}
