import { context, Span, SpanKind, trace } from '@opentelemetry/api';
import { contextFromHeaders, endWithError, Tracing } from '@app/common';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { httpLabels } from './http-metrics';

const SPAN = Symbol('http server span');

type Traced = FastifyRequest & { [SPAN]?: Span };

/** The request's HTTP server span (set by the onRequest hook), for its log line. */
export const requestSpan = (req: FastifyRequest): Span | undefined => (req as Traced)[SPAN];

/**
 * The gateway's HTTP span, as Fastify hooks: begun on `onRequest` as a child of the client's
 * `traceparent` when it sends one (W3C Trace Context), and made the active span for the rest
 * of the request, so that the command it sends (RpcClient) continues its trace; ended on
 * `onResponse` (or when the client goes away) with the route template and the status.
 */
export function httpTracingHooks(tracing: Tracing, v1Methods: ReadonlySet<string>) {
  return {
    onRequest(req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
      const parent = contextFromHeaders(req.headers);
      const span = tracing.span(req.method, SpanKind.SERVER, parent);
      (req as Traced)[SPAN] = span;
      // The handlers (and every await in them) run inside this context.
      context.with(trace.setSpan(parent, span), done);
    },
    async onResponse(req: FastifyRequest, reply: FastifyReply): Promise<void> {
      const span = requestSpan(req);
      if (!span) return;
      if (span.isRecording()) {
        // The labels the metrics use: a route template, never a room name or a token.
        const labels = httpLabels(req.method, req.routeOptions?.url, req.url, reply.statusCode, v1Methods);
        span.updateName(`${labels.http_request_method} ${labels.http_route}`);
        span.setAttributes({
          'http.request.method': labels.http_request_method,
          'http.route': labels.http_route,
          'http.response.status_code': reply.statusCode,
          'chat.api': labels.api,
        });
      }
      if (reply.statusCode >= 500) endWithError(span, `HTTP ${reply.statusCode}`);
      else span.end();
    },
    async onRequestAbort(req: FastifyRequest): Promise<void> {
      const span = requestSpan(req);
      if (span) endWithError(span, 'the client went away');
    },
  };
}
