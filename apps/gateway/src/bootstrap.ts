import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  activeTraceFields, AmqpBroker, assertRabbitReachable, assertRedisReachable, CONNECTION, createLogger, createUnredactedLogger, NestPinoLogger, ObservabilityModule, startObservability,
} from '@app/common';
import { Gauge } from 'prom-client';
import type Redis from 'ioredis';
import type { FastifyError, FastifyReply } from 'fastify';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { parse as parseQuery } from 'node:querystring';
import { GatewayConfig } from './config';
import { GatewayModule } from './gateway.module';
import { LiveHub } from './live/live-hub';
import { ApiError } from './shared/api-error';
import { accessLogHook } from './shared/access-log';
import { AMQP_BROKER, REDIS_CLIENT } from './shared/di-tokens';
import { httpMetricsHook } from './shared/http-metrics';
import { httpTracingHooks } from './shared/http-tracing';
import { MAX_PARAM_LENGTH } from './shared/routing';
import { V1_METHODS } from './v1/methods';

/**
 * The request line and headers together, at most: Node's 16 KB would refuse (431) a GET
 * rooms/message whose message is within its 10,000 characters but percent-encoded in the
 * query string (up to 12 bytes a character: 120,000), as v1 clients send it.
 */
const MAX_HEADER_BYTES = 160 * 1024;

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
      ? { https: { cert: readFileSync(config.TLS_CERT_FILE), key: readFileSync(config.TLS_KEY_FILE), maxHeaderSize: MAX_HEADER_BYTES } }
      : { http: { maxHeaderSize: MAX_HEADER_BYTES } }),
    routerOptions: {
      caseSensitive: false,
      ignoreTrailingSlash: true,
      maxParamLength: MAX_PARAM_LENGTH,
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
    // A path Fastify cannot decode or route never reaches Nest's error filters: answered here
    // with the body every other error has (clients read error.code, .type and .message).
    frameworkErrors: (err: FastifyError, _req: unknown, reply: FastifyReply) => {
      const answer = err.code === 'FST_ERR_BAD_URL'
        ? new ApiError(400, 'The request path could not be decoded: a % not followed by two hex digits, or bytes that are not UTF-8.')
        : new ApiError(404, 'Not found.');
      reply.code(answer.status).type('application/json; charset=utf-8').send(JSON.stringify(answer.body()));
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
  // Its log lines carry the active request's trace_id and span_id.
  const logger = createLogger('gateway', config.LOG_LEVEL, 1, activeTraceFields);
  const startupMs = config.STARTUP_TIMEOUT_SECONDS * 1000;
  // First: live while it waits for its dependencies, and not ready until then. The gateway
  // uses no database: its readiness is the broker (every request's command) and Redis (limits).
  const observability = await startObservability('gateway', config, logger, { rabbitmq: CONNECTION, redis: CONNECTION }, { activeContext: true });
  let app: NestFastifyApplication;
  try {
    await Promise.all([assertRabbitReachable(config.AMQP_URL, startupMs), assertRedisReachable(config.REDIS_URL, startupMs)]);
    app = await NestFactory.create<NestFastifyApplication>(ObservabilityModule.around(GatewayModule.forRoot(config, logger), observability), createAdapter(config), {
      bodyParser: false,
      logger: new NestPinoLogger(logger),
      abortOnError: false,
    });
  } catch (err) {
    await observability.server.close();
    throw err;
  }
  const { registry, readiness } = observability;
  const broker = app.get<symbol, AmqpBroker>(AMQP_BROKER);
  const redis = app.get<symbol, Redis>(REDIS_CLIENT);
  readiness.set('rabbitmq', () => broker.isConnected());
  // ioredis's own state: no round trip (it reconnects by itself, and says so here).
  readiness.set('redis', () => redis.status === 'ready');
  const hub = app.get(LiveHub);
  new Gauge({
    name: 'live_active_connections',
    help: 'Live connections (Server-Sent Events, GET /v2/room/{room}/events) open on this gateway.',
    registers: [registry],
    collect() {
      this.set(hub.size);
    },
  });
  const fastify = app.getHttpAdapter().getInstance();
  // Bodies are read by the API that serves the path (v1: its first guard, so that a body
  // error gets the v1 error body): Fastify hands every body over unread.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
  const v1Methods = new Set(Object.keys(V1_METHODS));
  const tracing = httpTracingHooks(observability.tracing, v1Methods);
  fastify.addHook('onRequest', tracing.onRequest);
  fastify.addHook('onRequestAbort', tracing.onRequestAbort);
  fastify.addHook('onResponse', accessLogHook(createUnredactedLogger('gateway', config.LOG_LEVEL)));
  fastify.addHook('onResponse', httpMetricsHook(registry, v1Methods));
  fastify.addHook('onResponse', tracing.onResponse);
  app.enableShutdownHooks();
  await app.listen(config.PORT, config.HOST);
  logger.info({ url: await app.getUrl() }, 'gateway listening');
  return app;
}
