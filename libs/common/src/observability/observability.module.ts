import { DynamicModule, Global, Module } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { AppLogger, bareUrl } from '../logging';
import { Tracing, TracingConfig, TracingOptions } from '../tracing/tracing';
import { createMetricsRegistry } from './metrics';
import { ObservabilityServer, startObservabilityServer } from './observability-server';
import { CheckWords, Readiness } from './readiness';

/** A service's metrics registry, its readiness, the METRICS_PORT listener serving both, and its tracer. */
export interface Observability {
  registry: Registry;
  readiness: Readiness;
  server: ObservabilityServer;
  tracing: Tracing;
}

/** DI token of the service's Observability (see ObservabilityModule). */
export const OBSERVABILITY = Symbol('OBSERVABILITY');

/**
 * Starts a service's observability before anything else (so that a service still starting
 * is live and says which check it waits for): its registry, its readiness with the checks
 * declared, and the listener on METRICS_HOST:METRICS_PORT.
 */
export async function startObservability(
  service: string, config: { METRICS_HOST: string; METRICS_PORT: number } & TracingConfig, logger: AppLogger,
  checks: Record<string, CheckWords>, tracingOptions: TracingOptions = {},
): Promise<Observability> {
  const registry = createMetricsRegistry();
  const readiness = new Readiness(checks);
  try {
    const server = await startObservabilityServer({ host: config.METRICS_HOST, port: config.METRICS_PORT, registry, readiness, logger });
    const tracing = Tracing.start(service, config, tracingOptions);
    if (tracing.exporting) logger.info({ endpoint: bareUrl(config.OTEL_EXPORTER_OTLP_ENDPOINT!), sampled: config.OTEL_TRACES_SAMPLER_ARG }, 'exporting traces');
    return { registry, readiness, server, tracing };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new Error(`METRICS_PORT: cannot listen on ${config.METRICS_HOST}:${config.METRICS_PORT} (${e.code ?? e.message}); ` +
      'set METRICS_PORT to a free port (0: any), e.g. for a second replica on this machine');
  }
}

/**
 * Wraps a service's root module: its providers may inject OBSERVABILITY (global), and the
 * listener closes with the application.
 */
@Global()
@Module({})
export class ObservabilityModule {
  static around(root: DynamicModule, observability: Observability): DynamicModule {
    return {
      module: ObservabilityModule,
      imports: [root],
      providers: [
        { provide: OBSERVABILITY, useValue: observability },
        // A value with the hook: Nest calls it when the application closes.
        // The spans still buffered are exported before the process ends.
        { provide: ObservabilityServerCloser, useValue: { onApplicationShutdown: () => Promise.all([observability.server.close(), observability.tracing.shutdown()]) } },
      ],
      exports: [OBSERVABILITY],
    };
  }
}

class ObservabilityServerCloser {}
