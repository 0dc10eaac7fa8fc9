import { GuardedHttpClient, OutboundFailure } from '@app/common';
import type { AttemptResult } from './delivery-decisions';

/** One request of an attempt, as sent. */
export interface OutboundAttemptRequest {
  method: 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * One request through the outbound guard (SSRF rules, time limit, bounded answer): the
 * answer, or why there was none. Never throws: what went wrong is the attempt's outcome.
 */
export async function requestThroughGuard(http: GuardedHttpClient, request: OutboundAttemptRequest): Promise<AttemptResult> {
  try {
    const res = await http.request({ method: request.method, url: request.url, headers: request.headers, body: request.body });
    return { kind: 'response', status: res.status, headers: res.headers, body: res.body, truncated: res.truncated, durationMs: res.durationMs };
  } catch (err) {
    return err instanceof OutboundFailure
      ? { kind: 'failure', failure: err.kind, message: err.message, durationMs: err.durationMs }
      : { kind: 'failure', failure: 'connection', message: (err as Error)?.message ?? String(err), durationMs: 0 };
  }
}
