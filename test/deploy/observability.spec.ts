import { METRICS_PORTS } from '@app/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readYamlDocuments } from './kustomize';

/** The observability profile's files: the dashboard asks only for series that exist; Prometheus scrapes every service. */
const DEPLOY = join(__dirname, '../../deploy');

/** The services' metrics (README: Metrics and health), RabbitMQ's plugin's, and prom-client's defaults. */
const KNOWN = [
  /^http_server_request_duration_seconds_(bucket|count|sum)$/, /^live_active_connections$/,
  /^rpc_server_call_duration_seconds_(bucket|count|sum)$/, /^outbox_events$/, /^outbox_oldest_event_age_seconds$/,
  /^messaging_client_consumed_messages_total$/, /^webhook_delivery_attempt_duration_seconds_(bucket|count|sum)$/,
  /^webhook_deliveries_total$/, /^webhook_deliveries_unfinished$/, /^webhooks_disabled$/,
  /^rabbitmq_(detailed_)?queue_messages_(ready|unacked)$/, /^process_resident_memory_bytes$/,
];
const PROMQL_WORDS = new Set(['sum', 'max', 'by', 'rate', 'histogram_quantile', 'le', '__rate_interval']);

it('the Grafana dashboard queries only series the services and RabbitMQ export', () => {
  const dashboard = JSON.parse(readFileSync(join(DEPLOY, 'grafana/dashboards/chat-room-service.json'), 'utf8'));
  const exprs: string[] = dashboard.panels.flatMap((p: { targets: { expr: string }[] }) => p.targets.map((t) => t.expr));
  expect(exprs.length).toBeGreaterThan(10);
  for (const expr of exprs) {
    const names = expr.replace(/\{[^}]*\}/g, '').replace(/\([^()]*\bby \(([^)]*)\)/g, '(').match(/[a-z_][a-z0-9_]*/g) ?? [];
    const series = names.filter((n) => !PROMQL_WORDS.has(n) && /_/.test(n) && !/^(http_route|http_request_method|rpc_method|messaging_destination_name)$/.test(n));
    expect(series.length).toBeGreaterThan(0);
    for (const name of series) expect(KNOWN.some((k) => k.test(name)) ? name : `${name} (in ${expr})`).toBe(name);
  }
});

it('Prometheus scrapes every service on its METRICS_PORT, and RabbitMQ on its plugin\'s port', () => {
  const [config] = readYamlDocuments(join(DEPLOY, 'prometheus/prometheus.yml')) as { scrape_configs: { job_name: string; dns_sd_configs?: { names: string[]; port: number }[]; static_configs?: { targets: string[] }[] }[] }[];
  for (const [service, port] of Object.entries(METRICS_PORTS)) {
    const job = config.scrape_configs.find((j) => j.job_name === service);
    expect(job?.dns_sd_configs).toEqual([{ names: [service], type: 'A', port }]);
  }
  expect(config.scrape_configs.flatMap((j) => j.static_configs ?? []).flatMap((s) => s.targets)).toContain('rabbitmq:15692');
});
