import { Context, ROOT_CONTEXT, Span, SpanContext, trace, TraceFlags } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

/**
 * W3C Trace Context (`traceparent`, `tracestate`) in the forms a trace crosses our hops in:
 * HTTP headers, AMQP message headers, and a `traceparent` string kept with a row or a job
 * (the outbox, a delivery job) so that work done later still belongs to its trace.
 */
const propagator = new W3CTraceContextPropagator();

type Carrier = Record<string, unknown>;

const getter = {
  keys: (carrier: Carrier) => Object.keys(carrier),
  get: (carrier: Carrier, key: string) => {
    const value = carrier[key];
    if (typeof value === 'string') return value;
    if (Buffer.isBuffer(value)) return value.toString('latin1');
    // Node's HTTP headers: a repeated header is an array (W3C: the first traceparent counts).
    if (Array.isArray(value)) return value.map(String);
    return undefined;
  },
};

const setter = { set: (carrier: Carrier, key: string, value: string) => void (carrier[key] = value) };

/** The context a `traceparent` (and `tracestate`) in these headers names; ROOT_CONTEXT when none is valid. */
export function contextFromHeaders(headers: Carrier | undefined | null): Context {
  if (!headers || (headers.traceparent === undefined && headers.Traceparent === undefined)) return ROOT_CONTEXT;
  return propagator.extract(ROOT_CONTEXT, headers.traceparent === undefined ? { traceparent: headers.Traceparent, tracestate: headers.Tracestate } : headers, getter);
}

/** The context a stored `traceparent` names (ROOT_CONTEXT for none, or one that is not valid). */
export function contextOf(traceparent: string | null | undefined): Context {
  if (!traceparent) return ROOT_CONTEXT;
  return propagator.extract(ROOT_CONTEXT, { traceparent }, getter);
}

/** `00-<trace id>-<span id>-<flags>` of a span (undefined for the invalid span of a suppressed trace). */
export function traceparentOf(span: Span | SpanContext): string | undefined {
  const sc = 'spanContext' in span ? span.spanContext() : span;
  if (!trace.isSpanContextValid(sc)) return undefined;
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED ? '01' : '00'}`;
}

/** The `traceparent` of a context's span (undefined when it has none). */
export function traceparentIn(ctx: Context): string | undefined {
  const span = trace.getSpan(ctx);
  return span ? traceparentOf(span) : undefined;
}

/** Writes `traceparent` (and `tracestate`, when there is one) of the span into headers. */
export function injectHeaders(span: Span, headers: Carrier): Carrier {
  propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, setter);
  return headers;
}

/** Whether a stored `traceparent` is of a sampled trace (one whose spans are recorded). */
export function isSampled(traceparent: string | null | undefined): boolean {
  return typeof traceparent === 'string' && traceparent.endsWith('-01');
}

/** The fields a log line carries to be found from its trace, and back. */
export interface TraceFields {
  trace_id?: string;
  span_id?: string;
}

/** `trace_id` and `span_id` of a span or a stored `traceparent` (none for neither). */
export function traceFields(of: Span | string | null | undefined): TraceFields {
  if (!of) return {};
  if (typeof of === 'string') {
    const m = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(of);
    return m ? { trace_id: m[1], span_id: m[2] } : {};
  }
  const sc = of.spanContext();
  return trace.isSpanContextValid(sc) ? { trace_id: sc.traceId, span_id: sc.spanId } : {};
}

/** A context whose span is this one: the parent to give the spans of the work it covers. */
export const withSpan = (span: Span): Context => trace.setSpan(ROOT_CONTEXT, span);

/**
 * Where a request's trace travels with a command's payload inside the gateway when no context
 * is kept across awaits (tracing off: see Tracing's activeContext): a symbol-keyed property of
 * the request's actor object, which commands carry as given (spread copies it; JSON never
 * sees a symbol, so nothing of it crosses the broker).
 */
const TRACE_CARRIER = Symbol.for('chat-room-service.trace');

/** Lets this object (a request's actor) carry the request's trace context. */
export function carryTrace<T extends object>(carrier: T, ctx: Context): T {
  (carrier as Record<symbol, unknown>)[TRACE_CARRIER] = ctx;
  return carrier;
}

/** The trace context a command's payload carries on its actor, if any. */
export function carriedTrace(payload: unknown): Context | undefined {
  return traceOfActor((payload as { actor?: unknown } | null | undefined)?.actor);
}

/** The trace context a request's actor carries, if any (for a command that has no actor of its own to carry it). */
export function traceOfActor(actor: unknown): Context | undefined {
  return actor && typeof actor === 'object' ? ((actor as Record<symbol, unknown>)[TRACE_CARRIER] as Context | undefined) : undefined;
}
