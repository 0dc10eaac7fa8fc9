import { AppLogger, redactUrl, traceFields } from '@app/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestToken } from './auth/request-token';
import { requestSpan } from './http-tracing';

/**
 * One structured line per request, with secrets redacted from the URL: a Fastify
 * `onResponse` hook rather than a Nest middleware, which on Fastify would bring in
 * @fastify/middie's Connect layer on every request. Every field is named here and none
 * holds a secret (the URL is redacted, the token is its id), so `logger` may be one without
 * pino's path redaction (createUnredactedLogger): add no field that could carry one.
 */
export function accessLogHook(logger: AppLogger): (req: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (req, reply) => {
    logger.info({
      method: req.method,
      url: redactUrl(req.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
      tokenId: requestToken(req)?.id,
      remaining: reply.getHeader('X-RateLimit-Remaining'),
      ...traceFields(requestSpan(req)),
    }, 'request');
  };
}
