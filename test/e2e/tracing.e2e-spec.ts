/**
 * Traces end to end: the three built services as `npm start` runs them, exporting to an
 * OTLP/HTTP receiver the test runs (OTEL_EXPORTER_OTLP_ENDPOINT), and a webhook receiver
 * that answers with a reply.
 *
 * A notification sent with a client's `traceparent` is one trace from the client's span to
 * the reply posted back: the gateway's HTTP span (a child of the client's), the command over
 * AMQP (client and server spans), the commit, the outbox event's publish, the dispatcher's
 * consumer span and its matching, the webhook attempt (whose `traceparent` the receiver gets), and the reply's
 * command. The log lines of the request carry its trace id. Without an OTLP endpoint nothing
 * is recorded, but the trace context still reaches the receiver.
 */
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from '../support/common';
import { startStack, Stack } from '../support/harness';
import { cli, startTestSystem, TestSystem } from '../support/processes';
import { Receiver } from './support-webhooks';

interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
}

/** An OTLP/HTTP trace receiver (JSON, as @opentelemetry/exporter-trace-otlp-http sends). */
class OtlpReceiver {
  readonly spans: ExportedSpan[] = [];
  private constructor(private readonly server: Server, readonly url: string) {}

  static async start(): Promise<OtlpReceiver> {
    let receiver!: OtlpReceiver;
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        if (req.url === '/v1/traces' && req.method === 'POST') receiver.take(JSON.parse(body));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    receiver = new OtlpReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return receiver;
  }

  private take(request: any): void {
    for (const rs of request.resourceSpans ?? []) {
      const service = rs.resource.attributes.find((a: any) => a.key === 'service.name')?.value.stringValue;
      for (const ss of rs.scopeSpans ?? []) {
        for (const s of ss.spans ?? []) {
          const attributes = Object.fromEntries((s.attributes ?? []).map((a: any) => [a.key, Object.values(a.value)[0]]));
          this.spans.push({ service, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId || undefined, name: s.name, kind: s.kind, attributes });
        }
      }
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const ROOM = 'TracedRoom';

describe('one trace per request, across every service', () => {
  let otlp: OtlpReceiver;
  let stack: TestSystem;
  let receiver: Receiver;

  beforeAll(async () => {
    otlp = await OtlpReceiver.start();
    stack = await startTestSystem('e2e_tracing', { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, WEBHOOK_ALLOWED_NETWORKS: '127.0.0.2/32' });
    receiver = await Receiver.start('127.0.0.2');
  }, 90_000);

  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
    await otlp?.stop();
  }, 60_000);

  it('carries a client traceparent through the command, the event, the webhook POST and its reply', async () => {
    const admin = cli(['token', 'create', '--type', 'admin'], stack.env).stdout.trim();
    const form = (body: Record<string, string>) => ({ method: 'POST', body: new URLSearchParams({ auth_token: admin, ...body }) });
    expect((await fetch(`${stack.baseUrl}/v1/users/create`, form({ email: 'tracer@example.com', name: 'Tracer' }))).status).toBe(200);
    expect((await fetch(`${stack.baseUrl}/v1/rooms/create`, form({ name: ROOM, owner_user_id: '1' }))).status).toBe(200);
    const token = cli(['token', 'create', '--type', 'personal', '--user', 'tracer@example.com'], stack.env).stdout.trim();
    const hook = receiver.route('/hook', { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'traced pong' }) });
    const made = await fetch(`${stack.baseUrl}/v2/room/${ROOM}/webhook?auth_token=${token}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url: hook, event: 'room_notification', name: 'tracer' }),
    });
    expect(made.status).toBe(201);

    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const clientSpan = '00f067aa0ba902b7';
    const sent = await fetch(`${stack.baseUrl}/v2/room/${ROOM}/notification?auth_token=${token}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', traceparent: `00-${traceId}-${clientSpan}-01` },
      body: JSON.stringify({ message: 'traced ping' }),
    });
    expect(sent.status).toBe(204);

    // The receiver got the trace: same trace id, the attempt's span as parent, sampled.
    await eventually(() => expect(receiver.to('/hook')).toHaveLength(1), 15_000);
    const got = String(receiver.to('/hook')[0].headers.traceparent);
    expect(got).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    // The reply is posted back into the room.
    await eventually(async () => {
      const history = await (await fetch(`${stack.baseUrl}/v2/room/${ROOM}/history?auth_token=${token}`)).json();
      expect(history.items.map((i: { message: string }) => i.message)).toContain('traced pong');
    }, 15_000);

    const spans = await eventually(() => {
      const of = otlp.spans.filter((s) => s.traceId === traceId);
      // Two commands (the notification and the reply), each a client and a server span.
      expect(of.filter((s) => s.name === 'rooms.send-notification.v1')).toHaveLength(4);
      expect(of.filter((s) => s.service === 'webhook-dispatcher' && s.name === 'POST')).toHaveLength(1);
      return of;
    }, 15_000);
    const one = (where: (s: ExportedSpan) => boolean, what: string): ExportedSpan => {
      const found = spans.filter(where);
      if (found.length !== 1) throw new Error(`expected one ${what}, found ${found.length}: ${JSON.stringify(spans, null, 1)}`);
      return found[0];
    };
    const http = one((s) => s.service === 'gateway' && s.kind === 2, 'gateway HTTP span');
    expect(http).toMatchObject({ name: 'POST /v2/room/:room/notification', parentSpanId: clientSpan });
    expect(http.attributes).toMatchObject({ 'http.route': '/v2/room/:room/notification', 'http.response.status_code': 204 });
    const send = one((s) => s.service === 'gateway' && s.kind === 3, 'gateway command span');
    expect(send.parentSpanId).toBe(http.spanId);
    const handled = one((s) => s.service === 'rooms' && s.kind === 2 && s.parentSpanId === send.spanId, 'rooms command span');
    one((s) => s.service === 'rooms' && s.name === 'commit' && s.parentSpanId === handled.spanId, 'commit span');
    const publish = one((s) => s.service === 'rooms' && s.kind === 4 && s.parentSpanId === handled.spanId, 'publish span');
    expect(publish.name).toMatch(/^publish /);
    const consumed = one((s) => s.service === 'webhook-dispatcher' && s.kind === 5 && s.parentSpanId === publish.spanId, 'dispatcher consumer span');
    // (The reply's own event is matched too, under its own consumer span.)
    const match = one((s) => s.service === 'webhook-dispatcher' && s.name === 'match' && s.parentSpanId === consumed.spanId, 'dispatcher matching span');
    expect(match.kind).toBe(1);
    expect(match.attributes).toMatchObject({ 'webhook.event': 'room_notification', 'webhook.deliveries': 1 });
    const attempt = one((s) => s.service === 'webhook-dispatcher' && s.name === 'POST', 'webhook attempt span');
    expect(attempt.parentSpanId).toBe(consumed.spanId);
    expect(attempt.attributes).toMatchObject({ 'http.response.status_code': 200, 'webhook.attempt': 1, 'server.address': '127.0.0.2' });
    // The receiver's parent is the attempt: it can join the trace where it belongs.
    expect(got.split('-')[2]).toBe(attempt.spanId);
    const reply = one((s) => s.service === 'webhook-dispatcher' && s.kind === 3 && s.name === 'rooms.send-notification.v1', 'reply command span');
    expect(reply.parentSpanId).toBe(attempt.spanId);
    one((s) => s.service === 'rooms' && s.kind === 2 && s.parentSpanId === reply.spanId, 'reply handled by rooms');
    // No span names a token or the webhook's URL.
    const text = JSON.stringify(spans);
    expect(text).not.toContain(token);
    expect(text).not.toContain(hook);

    // The request's log line names the trace (and its span: the gateway's HTTP span).
    const request = stack.launched.logs((l) => l.service === 'gateway' && l.msg === 'request' && l.trace_id === traceId);
    expect(request).toHaveLength(1);
    expect(request[0].span_id).toBe(http.spanId);
  }, 60_000);

  it('starts a trace of its own for a request without traceparent, and ignores a malformed one', async () => {
    const admin = cli(['token', 'create', '--type', 'admin'], stack.env).stdout.trim();
    const res = await fetch(`${stack.baseUrl}/v1/rooms/list?auth_token=${admin}`, { headers: { traceparent: '00-zz-not-a-trace' } });
    expect(res.status).toBe(200);
    const span = await eventually(() => {
      const found = otlp.spans.filter((s) => s.service === 'gateway' && s.name === 'GET /v1/rooms/list');
      expect(found.length).toBeGreaterThanOrEqual(1);
      return found[found.length - 1];
    }, 15_000);
    expect(span.parentSpanId).toBeUndefined();
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(otlp.spans.some((s) => s.service === 'rooms' && s.traceId === span.traceId)).toBe(true);
  }, 30_000);
});

describe('trace context without an OTLP endpoint', () => {
  let stack: Stack;
  let receiver: Receiver;

  beforeAll(async () => {
    const allowed = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.2/32' };
    stack = await startStack({ gateway: true, rooms: allowed, dispatcher: allowed });
    receiver = await Receiver.start('127.0.0.2');
  }, 60_000);

  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
  }, 30_000);

  it('still reaches the webhook: the same trace id, marked not sampled (nothing was recorded)', async () => {
    const admin = await stack.createToken('admin');
    const form = (body: Record<string, string>) => ({ method: 'POST', body: new URLSearchParams({ auth_token: admin, ...body }) });
    expect((await fetch(`${stack.baseUrl}/v1/users/create`, form({ email: 'quiet@example.com', name: 'Quiet' }))).status).toBe(200);
    expect((await fetch(`${stack.baseUrl}/v1/rooms/create`, form({ name: ROOM, owner_user_id: '1' }))).status).toBe(200);
    const token = await stack.createToken('personal', '', { user: 'quiet@example.com' });
    const hook = receiver.route('/quiet', { status: 204 });
    const made = await fetch(`${stack.baseUrl}/v2/room/${ROOM}/webhook?auth_token=${token}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url: hook, event: 'room_message' }),
    });
    expect(`${made.status} ${await made.text()}`).toMatch(/^201 /);
    const traceId = 'a3ce929d0e0e47364bf92f3577b34da6';
    const sent = await fetch(`${stack.baseUrl}/v2/room/${ROOM}/message?auth_token=${token}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', traceparent: `00-${traceId}-b7ad6b7169203331-01` },
      body: JSON.stringify({ message: 'hello, untraced world' }),
    });
    expect(sent.status).toBe(201);
    await eventually(() => expect(receiver.to('/quiet')).toHaveLength(1), 15_000);
    const got = String(receiver.to('/quiet')[0].headers.traceparent);
    expect(got).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
    expect(got).not.toContain('b7ad6b7169203331');

    // And through v1 (its controller hands the request's trace to the command itself): a v1
    // message is a notification.
    const notified = receiver.route('/quiet-v1', { status: 204 });
    expect((await fetch(`${stack.baseUrl}/v2/room/${ROOM}/webhook?auth_token=${token}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ url: notified, event: 'room_notification' }),
    })).status).toBe(201);
    const v1Trace = '0e0e47364bf92f3577b34da6a3ce929d';
    const v1 = await fetch(`${stack.baseUrl}/v1/rooms/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', traceparent: `00-${v1Trace}-b7ad6b7169203331-01` },
      body: new URLSearchParams({ auth_token: admin, room_id: ROOM, from: 'Tracer', message: 'hello from v1' }).toString(),
    });
    expect(v1.status).toBe(200);
    await eventually(() => expect(receiver.to('/quiet-v1')).toHaveLength(1), 15_000);
    expect(String(receiver.to('/quiet-v1')[0].headers.traceparent)).toMatch(new RegExp(`^00-${v1Trace}-[0-9a-f]{16}-00$`));
  }, 30_000);

  it('reaches it from v2 requests whose commands carry no actor too: a user deleted, a delivery sent again', async () => {
    const admin = await stack.createToken('admin');
    const form = (body: Record<string, string>) => ({ method: 'POST', body: new URLSearchParams({ auth_token: admin, ...body }) });
    expect((await fetch(`${stack.baseUrl}/v1/users/create`, form({ email: 'leaver@example.com', name: 'Leaver' }))).status).toBe(200);
    expect((await fetch(`${stack.baseUrl}/v1/users/create`, form({ email: 'ops@example.com', name: 'Ops', is_group_admin: '1' }))).status).toBe(200);
    const ops = await stack.createToken('personal', '', { user: 'ops@example.com' });
    expect((await fetch(`${stack.baseUrl}/v1/rooms/create`, form({ name: 'LeftRoom', owner_user_id: '1' }))).status).toBe(200);
    const token = await stack.createToken('personal', '', { user: 'leaver@example.com' });
    const json = (method: string, body?: unknown, traceparent?: string) => ({
      method, headers: { 'Content-Type': 'application/json', ...(traceparent ? { traceparent } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const hook = receiver.route('/exits', { status: 204 });
    // The operator's webhook: the leaver's own would be disabled with their user (creator_lost_access).
    const made = await fetch(`${stack.baseUrl}/v2/room/LeftRoom/webhook?auth_token=${ops}`, json('POST', { url: hook, event: 'room_exit' }));
    const created = await made.text();
    expect(`${made.status} ${created}`).toMatch(/^201 /);
    const webhook = JSON.parse(created).id;
    expect((await fetch(`${stack.baseUrl}/v2/room/LeftRoom/participant/leaver@example.com?auth_token=${token}`, json('PUT'))).status).toBe(204);

    // DELETE /v2/user: the command has no actor; the room_exit it causes is in the request's trace.
    const deleteTrace = '47364bf92f3577b34da6a3ce929d0e0e';
    const deleted = await fetch(`${stack.baseUrl}/v2/user/leaver@example.com?auth_token=${ops}`, json('DELETE', undefined, `00-${deleteTrace}-b7ad6b7169203331-01`));
    expect(deleted.status).toBe(204);
    await eventually(() => expect(receiver.to('/exits')).toHaveLength(1), 15_000);
    const exit = receiver.to('/exits')[0];
    expect(String(exit.headers.traceparent)).toMatch(new RegExp(`^00-${deleteTrace}-[0-9a-f]{16}-00$`));

    // Redeliver (a dispatcher command): its attempt is in the operator's request's trace.
    const redeliverTrace = '3577b34da6a3ce929d0e0e47364bf92f';
    const redelivered = await fetch(
      `${stack.baseUrl}/v2/room/LeftRoom/webhook/${webhook}/delivery/${exit.headers['webhook-id']}/redeliver?auth_token=${ops}`,
      json('POST', undefined, `00-${redeliverTrace}-b7ad6b7169203331-01`));
    expect(`${redelivered.status} ${await redelivered.text()}`).toMatch(/^202 /);
    await eventually(() => expect(receiver.to('/exits')).toHaveLength(2), 15_000);
    expect(receiver.to('/exits')[1].headers['webhook-id']).toBe(exit.headers['webhook-id']);
    expect(String(receiver.to('/exits')[1].headers.traceparent)).toMatch(new RegExp(`^00-${redeliverTrace}-[0-9a-f]{16}-00$`));
  }, 30_000);
});
