import { DURATION_BUCKETS, httpMethodLabel, statusCodeLabel, UNMATCHED_ROUTE } from '@app/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Histogram, Registry } from 'prom-client';

export type HttpLabels = Record<'http_request_method' | 'http_route' | 'http_response_status_code' | 'api', string>;

/**
 * Which API a request was for, from its path's first segment (routing is case-insensitive):
 * `v1`, `v2`, `console` (the page and its assets) or `other` (health, documentation, files).
 */
export function apiLabel(path: string): 'v1' | 'v2' | 'console' | 'other' {
  const first = /^\/([^/?#]*)/.exec(path)?.[1].toLowerCase() ?? '';
  if (first === 'v1') return 'v1';
  if (first === 'v2') return 'v2';
  if (first === '' || first === 'assets') return 'console';
  return 'other';
}

/** The one route every v1 method is served by (the method is its path's last two segments). */
const V1_ROUTE = '/v1/:resource/:action';

/**
 * The route of a request: the template the router matched, as declared
 * (`/v2/room/:room/notification`: never the room's name, or a token in a path); for the v1
 * route, the method's own path when it is one of `v1Methods` (thirteen names, so the series
 * stay bounded); `unmatched` when no route did.
 */
function routeLabel(routeTemplate: string | undefined, path: string, v1Methods: ReadonlySet<string>): string {
  if (!routeTemplate || routeTemplate === '*' || routeTemplate === '/*') return UNMATCHED_ROUTE;
  if (routeTemplate === V1_ROUTE) {
    const method = /^\/v1\/([^/?#]+\/[^/?#]+)\/?(?:[?#]|$)/i.exec(path)?.[1].toLowerCase();
    if (method && v1Methods.has(method)) return `/v1/${method}`;
  }
  return routeTemplate;
}

/**
 * The labels of one request, none of them user-supplied: the route (see routeLabel), the
 * method one OpenTelemetry names or `_OTHER`, the status, the API.
 */
export function httpLabels(method: string, routeTemplate: string | undefined, path: string, status: number, v1Methods: ReadonlySet<string> = new Set()): HttpLabels {
  return {
    http_request_method: httpMethodLabel(method),
    http_route: routeLabel(routeTemplate, path, v1Methods),
    http_response_status_code: statusCodeLabel(status),
    api: apiLabel(path),
  };
}

/**
 * Whether a response is a live stream (`text/event-stream`, see the live module's sseSink):
 * its lifetime, minutes or hours, is no request's latency, so it is left out of the request
 * durations (`live_active_connections` counts the streams open).
 */
export function isEventStream(res: { getHeader(name: string): unknown }): boolean {
  return String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');
}

/**
 * `http_server_request_duration_seconds`, observed in memory in a Fastify `onResponse` hook
 * beside the access log (Fastify's own timing of the request, to the last byte sent).
 */
export function httpMetricsHook(registry: Registry, v1Methods: ReadonlySet<string> = new Set()): (req: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const duration = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'HTTP requests to the public port, by method, route template, status code and API (v1, v2, console, other).',
    labelNames: ['http_request_method', 'http_route', 'http_response_status_code', 'api'],
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  return async (req, reply) => {
    if (isEventStream(reply.raw)) return;
    duration.observe(httpLabels(req.method, req.routeOptions?.url, req.url, reply.statusCode, v1Methods), reply.elapsedTime / 1000);
  };
}
