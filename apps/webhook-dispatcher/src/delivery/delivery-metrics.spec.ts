import { Registry } from 'prom-client';
import { attemptResultLabel, deliveryKindOf, DeliveryMetrics } from './delivery-metrics';

describe('delivery metrics', () => {
  const answer = (status: number) => ({ kind: 'response' as const, status, headers: {}, body: '', truncated: false, durationMs: 12 });

  it('word an attempt by its kind of result, never by what the receiver said', () => {
    expect(attemptResultLabel(answer(204))).toBe('success');
    expect(attemptResultLabel(answer(410))).toBe('http_error');
    expect(attemptResultLabel(answer(302))).toBe('http_error');
    expect(attemptResultLabel({ kind: 'failure', failure: 'timeout', message: 'slow.example.com: no answer', durationMs: 10_000 })).toBe('timeout');
    expect(attemptResultLabel({ kind: 'failure', failure: 'busy', message: 'not sent', durationMs: 0 })).toBe('busy');
  });

  it('label events from the ten names only', async () => {
    const registry = new Registry();
    const metrics = new DeliveryMetrics(registry);
    metrics.attempt('room_message', answer(200));
    metrics.end('room_message', 'delivered');
    metrics.end('Ops room', 'failed');
    const text = await registry.metrics();
    expect(text).toContain('webhook_delivery_attempt_duration_seconds_count{webhook_event="room_message",result="success",kind="webhook"} 1');
    expect(text).toContain('webhook_deliveries_total{webhook_event="room_message",outcome="delivered",kind="webhook"} 1');
    expect(text).toContain('webhook_deliveries_total{webhook_event="_OTHER",outcome="failed",kind="webhook"} 1');
    expect(text).not.toContain('Ops room');
  });

  it('label a delivery by kind: webhook, or the bridge\'s platform', async () => {
    const registry = new Registry();
    const metrics = new DeliveryMetrics(registry);
    expect(deliveryKindOf({})).toBe('webhook');
    expect(deliveryKindOf({ bridge: { kind: 'discord', events: ['room_message'], matrixRoomId: null, matrixAccessToken: null } })).toBe('discord');
    metrics.attempt('room_message', answer(204), 'discord');
    metrics.end('room_message', 'delivered', 'nonsense');
    const text = await registry.metrics();
    expect(text).toContain('webhook_delivery_attempt_duration_seconds_count{webhook_event="room_message",result="success",kind="discord"} 1');
    expect(text).toContain('webhook_deliveries_total{webhook_event="room_message",outcome="delivered",kind="_OTHER"} 1');
  });
});
