import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { type AppLogger, redactUrl } from '../logging';
import type { Readiness, ReadinessReport } from './readiness';

export interface ObservabilityServerOptions {
  host: string;
  /** 0: any free port (the bound one is logged). */
  port: number;
  registry: Registry;
  readiness: Readiness;
  logger: AppLogger;
}

export interface ObservabilityServer {
  /** Where it listens, as bound. */
  readonly address: { host: string; port: number };
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** `GET /health/live`: the event loop answered. */
export function liveBody(): { status: 'live' } {
  return { status: 'live' };
}

/** The status code of a readiness report. */
export function readinessStatus(report: ReadinessReport): number {
  return report.status === 'ready' ? 200 : 503;
}

/**
 * The listener of METRICS_PORT: `GET /metrics` (Prometheus text format), `GET /health/live`
 * and `GET /health/ready`, apart from any public port. Plain node:http: three fixed routes
 * need no framework, and it answers before the service's framework has started (a service
 * still migrating is live and says it is not ready).
 */
export async function startObservabilityServer(o: ObservabilityServerOptions): Promise<ObservabilityServer> {
  const server: Server = createServer((req, res) => {
    void answer(req, res, o).catch((err: Error) => {
      o.logger.warn({ err: err.message, url: redactUrl(req.url ?? '') }, 'metrics listener: request failed');
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': JSON_TYPE });
      res.end(JSON.stringify({ error: 'internal' }));
    });
  });
  // Scrapers and probers reconnect often; a connection idle this long is theirs to reopen.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const address = { host: bound.address, port: bound.port };
  o.logger.info({ url: `http://${bound.family === 'IPv6' ? `[${bound.address}]` : bound.address}:${bound.port}`, routes: ['/metrics', '/health/live', '/health/ready'] }, 'metrics listening');
  return {
    address,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, o: ObservabilityServerOptions): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': JSON_TYPE }).end(JSON.stringify({ error: 'method not allowed' }));
    return;
  }
  if (path === '/metrics') {
    const body = await o.registry.metrics();
    res.writeHead(200, { 'Content-Type': o.registry.contentType, 'Cache-Control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body);
  } else if (path === '/health/live') {
    res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store' }).end(JSON.stringify(liveBody()));
  } else if (path === '/health/ready') {
    const report = await o.readiness.report();
    res.writeHead(readinessStatus(report), { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store' }).end(JSON.stringify(report));
  } else {
    res.writeHead(404, { 'Content-Type': JSON_TYPE }).end(JSON.stringify({ error: 'not found', routes: ['/metrics', '/health/live', '/health/ready'] }));
  }
}
