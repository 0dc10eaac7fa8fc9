import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * OpenTelemetry's recommended boundaries for request durations (http.server.request.duration),
 * in seconds; used by every duration histogram here so that they read alike.
 */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/**
 * The registry of one service, with the process and Node metrics prom-client collects
 * (CPU, memory, heap, event loop lag, GC, handles). One per service rather than
 * prom-client's global one: the integration tests run several services in one process.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** Seconds since `started` (process.hrtime.bigint()), for a duration histogram. */
export function secondsSince(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/**
 * A reading taken when Prometheus scrapes (a count from a table, say), bounded: at most one
 * read in flight, reused for `cacheMs`, and given up after `timeoutMs`. Resolves undefined
 * when no read has succeeded recently enough (the gauge then keeps what it showed last).
 */
export function sampledOnScrape<T>(read: () => Promise<T>, options: { timeoutMs?: number; cacheMs?: number; now?: () => number } = {}): () => Promise<T | undefined> {
  const timeoutMs = options.timeoutMs ?? 1_000;
  const cacheMs = options.cacheMs ?? 1_000;
  const now = options.now ?? Date.now;
  let last: { at: number; value: T } | undefined;
  let inFlight: Promise<T | undefined> | undefined;
  return () => {
    if (last && now() - last.at < cacheMs) return Promise.resolve(last.value);
    if (inFlight) return inFlight;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
      timer.unref();
    });
    const reading = read().then((value) => {
      last = { at: now(), value };
      return value;
    }, () => undefined);
    inFlight = Promise.race([reading, late]).finally(() => {
      clearTimeout(timer);
      inFlight = undefined;
    });
    return inFlight;
  };
}
