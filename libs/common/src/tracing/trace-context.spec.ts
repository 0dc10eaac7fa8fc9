import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { carriedTrace, carryTrace, traceOfActor, contextFromHeaders, contextOf, injectHeaders, isSampled, traceFields, traceparentIn, traceparentOf, withSpan } from './trace-context';
import { Tracing } from './tracing';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';

describe('trace context', () => {
  it('reads a traceparent from HTTP or AMQP headers, and ignores one that is not valid', () => {
    const sc = (headers: Record<string, unknown>) => trace.getSpanContext(contextFromHeaders(headers));
    expect(sc({ traceparent: `00-${TRACE}-${PARENT}-01` })).toMatchObject({ traceId: TRACE, spanId: PARENT, traceFlags: 1, isRemote: true });
    // amqplib may hand a header over as a Buffer (a byte string).
    expect(sc({ traceparent: Buffer.from(`00-${TRACE}-${PARENT}-00`) })).toMatchObject({ traceId: TRACE, traceFlags: 0 });
    for (const bad of ['00-zz-not-a-trace', `00-${'0'.repeat(32)}-${PARENT}-01`, `00-${TRACE}-${'0'.repeat(16)}-01`, 42]) {
      expect(sc({ traceparent: bad })).toBeUndefined();
    }
    expect(contextFromHeaders(undefined)).toBe(ROOT_CONTEXT);
    expect(contextFromHeaders({})).toBe(ROOT_CONTEXT);
    expect(contextOf(null)).toBe(ROOT_CONTEXT);
  });

  it('keeps tracestate beside traceparent', () => {
    const ctx = contextFromHeaders({ traceparent: `00-${TRACE}-${PARENT}-01`, tracestate: 'vendor=abc' });
    const headers = injectHeaders(trace.wrapSpanContext(trace.getSpanContext(ctx)!), {});
    expect(headers).toEqual({ traceparent: `00-${TRACE}-${PARENT}-01`, tracestate: 'vendor=abc' });
  });

  it('gives log fields and sampling from a stored traceparent', () => {
    expect(traceFields(`00-${TRACE}-${PARENT}-01`)).toEqual({ trace_id: TRACE, span_id: PARENT });
    expect(traceFields('garbage')).toEqual({});
    expect(traceFields(undefined)).toEqual({});
    expect(isSampled(`00-${TRACE}-${PARENT}-01`)).toBe(true);
    expect(isSampled(`00-${TRACE}-${PARENT}-00`)).toBe(false);
    expect(isSampled(undefined)).toBe(false);
  });
});

describe('a trace carried by a request\'s actor', () => {
  it('travels with the actor object and its copies, and never into JSON', () => {
    const ctx = contextOf(`00-${TRACE}-${PARENT}-01`);
    const actor = carryTrace({ tokenId: 1, label: 'API' }, ctx);
    expect(carriedTrace({ actor })).toBe(ctx);
    expect(carriedTrace({ actor: { ...actor, userId: 2 } })).toBe(ctx);
    expect(JSON.parse(JSON.stringify({ actor }))).toEqual({ actor: { tokenId: 1, label: 'API' } });
    expect(carriedTrace({ actor: { tokenId: 1 } })).toBeUndefined();
    expect(carriedTrace({})).toBeUndefined();
    expect(carriedTrace(null)).toBeUndefined();
    // The actor itself, for commands that have no actor of their own.
    expect(traceOfActor(actor)).toBe(ctx);
    expect(traceOfActor({ tokenId: 1 })).toBeUndefined();
    expect(traceOfActor(undefined)).toBeUndefined();
  });
});

describe('Tracing', () => {
  it('without an exporter, records nothing but still makes child spans of the caller\'s trace', () => {
    const tracing = Tracing.off('test');
    expect(tracing.exporting).toBe(false);
    const parent = contextOf(`00-${TRACE}-${PARENT}-01`);
    const attributes = jest.fn(() => ({ a: 1 }));
    const span = tracing.span('work', SpanKind.SERVER, parent, attributes);
    expect(span.isRecording()).toBe(false);
    expect(attributes).not.toHaveBeenCalled();
    const tp = traceparentOf(span)!;
    expect(tp).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-00$`));
    expect(tp).not.toContain(PARENT);
    // A new trace where there is no parent: log lines still get ids.
    expect(traceFields(tracing.span('root', SpanKind.INTERNAL, ROOT_CONTEXT))).toEqual({ trace_id: expect.stringMatching(/^[0-9a-f]{32}$/), span_id: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });

  it('with an exporter, records spans as children of the caller\'s, honouring its sampling decision', async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = Tracing.start('svc', { OTEL_TRACES_SAMPLER_ARG: 1 }, { exporter });
    expect(tracing.exporting).toBe(true);
    const span = tracing.span('handle', SpanKind.CONSUMER, contextOf(`00-${TRACE}-${PARENT}-01`), () => ({ 'rpc.method': 'x' }));
    const child = tracing.span('child', SpanKind.INTERNAL, withSpan(span));
    expect(traceparentIn(withSpan(span))).toBe(traceparentOf(span));
    child.end();
    span.end();
    // A caller that did not sample: nothing recorded here either.
    tracing.span('unsampled', SpanKind.SERVER, contextOf(`00-${TRACE}-${PARENT}-00`)).end();
    await tracing.flush();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name).sort()).toEqual(['child', 'handle']);
    const handle = spans.find((s) => s.name === 'handle')!;
    expect(handle.parentSpanContext?.spanId).toBe(PARENT);
    expect(handle.attributes).toEqual({ 'rpc.method': 'x' });
    expect(handle.resource.attributes['service.name']).toBe('svc');
    expect(spans.find((s) => s.name === 'child')!.parentSpanContext?.spanId).toBe(handle.spanContext().spanId);
    await tracing.shutdown();
  });

  it('samples the given share of new traces', async () => {
    const exporter = new InMemorySpanExporter();
    const none = Tracing.start('svc', { OTEL_TRACES_SAMPLER_ARG: 0 }, { exporter });
    none.span('root', SpanKind.SERVER, ROOT_CONTEXT).end();
    await none.flush();
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });
});
