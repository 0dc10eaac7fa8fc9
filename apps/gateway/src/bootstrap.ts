import { BadRequestException, INestApplication, NotFoundException } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { assertRabbitReachable, assertRedisReachable, createLogger, NestPinoLogger } from '@app/common';
import type { FastifyError, FastifyReply } from 'fastify';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { parse as parseQuery } from 'node:querystring';
import { GatewayConfig } from './config';
import { GatewayModule } from './gateway.module';
import { accessLogHook } from './shared/access-log';

/**
 * The HTTP server: Fastify, set to route and read requests as the gateway always has
 * (case-insensitive paths, a trailing slash allowed, Node's query-string decoding), with
 * idle connections kept longer than clients keep them. Request bodies are left to each API
 * (v1: its first guard).
 */
function createAdapter(config: GatewayConfig): FastifyAdapter {
  return new FastifyAdapter({
    // Only the configured proxies' X-Forwarded-For/-Proto are believed (req.ip, req.protocol).
    ...(config.TRUST_PROXY.length > 0 ? { trustProxy: config.TRUST_PROXY } : {}),
    // Some v2 clients speak only HTTPS.
    ...(config.TLS_CERT_FILE && config.TLS_KEY_FILE
      ? { https: { cert: readFileSync(config.TLS_CERT_FILE), key: readFileSync(config.TLS_KEY_FILE) } }
      : {}),
    routerOptions: {
      caseSensitive: false,
      ignoreTrailingSlash: true,
      // A path segment is matched whatever its length (Node's header limit bounds the URL).
      maxParamLength: 16 * 1024,
      querystringParser: (query: string) => parseQuery(query),
    },
    // Longer than clients' and proxies' usual idle timeouts (60 s): a server that closes an
    // idle connection first races the client reusing it ("other side closed"), which a
    // client cannot safely retry for a POST.
    keepAliveTimeout: 65_000,
    requestTimeout: 300_000,
    // Requests arriving while the server closes are served, not answered 503.
    return503OnClosing: false,
    // A request Node's parser refuses (a line break inside a header value, a bad request
    // line, headers past the limit) never reaches a route: answered here, with the body every other error has.
    clientErrorHandler: answerClientError,
    // A path Fastify cannot decode or route is answered by the error filters, as any other error.
    frameworkErrors: (err: FastifyError, _req: unknown, reply: FastifyReply) => {
      reply.send(err.code === 'FST_ERR_BAD_URL' ? new BadRequestException('The request path could not be decoded.') : new NotFoundException());
    },
  });
}

/** Node's parser's answer to a request that is not HTTP it can read, in the API's error body. */
export function clientErrorResponse(err: { code?: string }): string | null {
  if (err.code === 'ECONNRESET' || err.code === 'EPIPE') return null;
  const [status, type, message] = err.code === 'HPE_HEADER_OVERFLOW'
    ? [431, 'Request Header Fields Too Large', 'The request headers are larger than the server accepts.']
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'The request was not received in time.']
      : [400, 'Bad Request', 'The request is not valid HTTP: its request line or a header is malformed (a line break inside a header value?).'];
  const body = JSON.stringify({ error: { code: status, type, message } });
  return `HTTP/1.1 ${status} ${type}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  const response = clientErrorResponse(err);
  if (response && socket.writable) socket.end(response);
  else socket.destroy();
}

/** Starts the HTTP gateway. Used by main.ts and by the integration tests alike. */
export async function startGateway(config: GatewayConfig): Promise<INestApplication> {
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const startupMs = config.STARTUP_TIMEOUT_SECONDS * 1000;
  await Promise.all([assertRabbitReachable(config.AMQP_URL, startupMs), assertRedisReachable(config.REDIS_URL, startupMs)]);
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forRoot(config, logger), createAdapter(config), {
    bodyParser: false,
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // Bodies are read by the API that serves the path (v1: its first guard, so that a body
  // error gets the v1 error body): Fastify hands every body over unread.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
  fastify.addHook('onResponse', accessLogHook(logger));
  app.enableShutdownHooks();
  await app.listen(config.PORT, config.HOST);
  logger.info({ url: await app.getUrl() }, 'gateway listening');
  return app;
}
