import { Attributes, Context, context, Span, SpanKind, SpanStatusCode, trace, Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, BatchSpanProcessor, ParentBasedSampler, SpanExporter, TraceIdRatioBasedSampler, TracerProvider } from '@opentelemetry/sdk-trace';
import { z } from 'zod';
import { TraceFields, traceFields } from './trace-context';

/**
 * OpenTelemetry's own variables (their names as every OpenTelemetry SDK reads them), checked at
 * start-up like the rest of the configuration.
 */
export const tracingShape = {
  /**
   * Where spans go (OTLP over HTTP: `/v1/traces` is appended), e.g. http://jaeger:4318. Unset:
   * nothing is recorded or exported; trace context is still propagated, so a `traceparent` a
   * client sends reaches the webhooks its request causes, and log lines carry its ids.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().optional().refine((v) => v === undefined || /^https?:\/\/[^/?#\s]+/i.test(v),
    'must be an http(s) URL, the OTLP/HTTP receiver (e.g. http://127.0.0.1:4318)'),
  /** The share of new traces recorded (0..1); a trace begun elsewhere keeps its caller's decision. */
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number({ invalid_type_error: 'must be a number from 0 to 1' })
    .min(0, 'must be a number from 0 to 1').max(1, 'must be a number from 0 to 1').default(1),
  /** The `service.name` of the spans (default: the service's own name). */
  OTEL_SERVICE_NAME: z.string().max(100, 'must be at most 100 characters').optional(),
};

export interface TracingConfig {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_TRACES_SAMPLER_ARG: number;
  OTEL_SERVICE_NAME?: string;
}

export interface TracingOptions {
  /**
   * Keep the active span across awaits (AsyncLocalStorage) while spans are exported, for code
   * that cannot be handed a context: the gateway's controllers and use cases between its
   * HTTP span and the command. The other services pass contexts explicitly (a command's, an
   * event's, a job's), which costs nothing per promise.
   */
  activeContext?: boolean;
  /** Spans go here instead of to OTLP (tests). */
  exporter?: SpanExporter;
}

let contextManagerSet = false;

/**
 * A service's tracer. Spans are always made, so that trace context flows from hop to hop and
 * into log lines, but they are recorded (and exported, in batches, off the request path) only
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set: otherwise each span is an id and a small object.
 */
export class Tracing {
  private constructor(
    readonly tracer: Tracer,
    /** Whether spans are recorded and exported. */
    readonly exporting: boolean,
    private readonly provider: TracerProvider,
  ) {}

  static start(service: string, config: TracingConfig, options: TracingOptions = {}): Tracing {
    const exporter = options.exporter ?? (config.OTEL_EXPORTER_OTLP_ENDPOINT
      ? new OTLPTraceExporter({ url: `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces` })
      : undefined);
    const provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': config.OTEL_SERVICE_NAME ?? service }),
      sampler: exporter
        ? new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLER_ARG) })
        : new AlwaysOffSampler(),
      spanProcessors: exporter ? [new BatchSpanProcessor({ exporter, maxQueueSize: 8_192, scheduledDelayMillis: 1_000 })] : [],
    });
    // Only when spans are recorded: on Node 20 AsyncLocalStorage costs on every promise of the
    // process (about 0.06 ms of the gateway's CPU per request). Without it, the gateway passes
    // its request's trace explicitly (the v1 controller) or on the request's actor (carryTrace).
    if (options.activeContext && exporter && !contextManagerSet) {
      // Process-wide (the API has one context manager): set once, by the first service that asks.
      contextManagerSet = context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    }
    return new Tracing(provider.getTracer(service), !!exporter, provider);
  }

  /** Spans that are never recorded (the CLI, tests that do not look at traces). */
  static off(service = 'off'): Tracing {
    return Tracing.start(service, { OTEL_TRACES_SAMPLER_ARG: 1 });
  }

  /**
   * A span, child of `parent` (a context; default: the active one, the gateway's request).
   * `attributes` are set only on a span that is recorded: building them costs nothing otherwise.
   */
  span(name: string, kind: SpanKind, parent: Context = context.active(), attributes?: () => Attributes): Span {
    const span = this.tracer.startSpan(name, { kind }, parent);
    if (attributes && span.isRecording()) span.setAttributes(attributes());
    return span;
  }

  /** The active context when it has a span (the gateway's request, when kept across awaits), else `fallback`. */
  activeOr(fallback: Context | undefined): Context {
    const active = context.active();
    return trace.getSpan(active) || !fallback ? active : fallback;
  }

  /** Exports what is buffered, then stops (on shutdown). */
  async shutdown(): Promise<void> {
    await this.provider.shutdown().catch(() => undefined);
  }

  async flush(): Promise<void> {
    await this.provider.forceFlush().catch(() => undefined);
  }
}

/** Ends a span with an error status (its message is not a secret: callers pass a redacted one). */
export function endWithError(span: Span, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  span.end();
}

/** The span active now (the gateway's request), if any. */
export const activeSpan = (): Span | undefined => trace.getSpan(context.active());

/** `trace_id` and `span_id` of the active span: a logger's mixin (see createLogger). */
export const activeTraceFields = (): TraceFields => traceFields(activeSpan());
