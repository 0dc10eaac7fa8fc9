import { createLogger, RpcCommandError, RpcFailure } from '@app/common';
import { commandFailure, WebhookHealthReport } from '@app/contracts';
import { healthErrorOf, HealthReporter } from './health-reporter';

const logger = createLogger('test', 'silent');
const T0 = Date.parse('2025-06-01T12:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const ok = { kind: 'response' as const, status: 204 };
const http500 = { kind: 'response' as const, status: 500 };
const timeout = { kind: 'failure' as const, failure: 'timeout' };

/** A reporter on a fake clock, whose sends are recorded and answered as `answer` says. */
function reporter(answer: (reports: WebhookHealthReport[]) => Promise<unknown> = async () => ({ disabled: [] })) {
  const sent: WebhookHealthReport[][] = [];
  const ids: string[] = [];
  const health = new HealthReporter(async (reports, commandId) => {
    sent.push(reports);
    ids.push(commandId);
    return answer(reports);
  }, logger);
  return { health, sent, ids };
}

/** Lets timers due by `ms` from now fire, and the sends they start settle. */
const advance = async (ms: number) => {
  await jest.advanceTimersByTimeAsync(ms);
};

describe('HealthReporter', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: T0 });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('reports the first outcome at once, then at most once a second while it stays the same', async () => {
    const { health, sent } = reporter();
    health.observe(1, ok);
    await advance(0);
    expect(sent).toEqual([[{ webhookId: 1, lastSuccessAt: iso(0), failuresAfterSuccess: 0, firstFailureAt: null, lastFailureAt: null, lastError: null }]]);
    // Thousands of deliveries in the next second: one report, a second after the last.
    for (let tick = 1; tick <= 4; tick++) {
      await advance(100);
      for (let i = 0; i < 500; i++) health.observe(1, ok);
    }
    await advance(599);
    expect(sent).toHaveLength(1);
    await advance(1);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual([expect.objectContaining({ webhookId: 1, lastSuccessAt: iso(400), failuresAfterSuccess: 0 })]);
    // Nothing more to say: nothing sent.
    await advance(5_000);
    expect(sent).toHaveLength(2);
  });

  it('reports at once when a webhook starts failing, and when it succeeds again', async () => {
    const { health, sent } = reporter();
    health.observe(1, ok);
    await advance(0);
    jest.setSystemTime(T0 + 100);
    health.observe(1, http500);
    await advance(0);
    expect(sent[1]).toEqual([{ webhookId: 1, lastSuccessAt: null, failuresAfterSuccess: 1, firstFailureAt: iso(100), lastFailureAt: iso(100), lastError: 'HTTP 500' }]);
    // More failures: the same state, throttled.
    jest.setSystemTime(T0 + 200);
    health.observe(1, timeout);
    await advance(0);
    expect(sent).toHaveLength(2);
    jest.setSystemTime(T0 + 300);
    health.observe(1, ok);
    await advance(0);
    expect(sent[2]).toEqual([{ webhookId: 1, lastSuccessAt: iso(300), failuresAfterSuccess: 0, firstFailureAt: null, lastFailureAt: iso(200), lastError: 'timeout' }]);
  });

  it('sends every webhook due in one command', async () => {
    const { health, sent } = reporter();
    for (const id of [1, 2, 3]) health.observe(id, ok);
    await advance(0);
    expect(sent.map((reports) => reports.map((r) => r.webhookId))).toEqual([[1, 2, 3]]);
    for (const id of [3, 1, 2]) health.observe(id, ok);
    await advance(1_000);
    expect(sent.map((reports) => reports.map((r) => r.webhookId))).toEqual([[1, 2, 3], [3, 1, 2]]);
  });

  it('sends a report that was not answered again as it was, under its command id, before anything newer', async () => {
    let down = true;
    const { health, sent, ids } = reporter(async () => {
      if (down) throw new RpcFailure('no_answer', 'no answer to webhooks.report-health.v1 within 10000 ms');
      return { disabled: [] };
    });
    health.observe(7, http500);
    await advance(0);
    jest.setSystemTime(T0 + 400);
    health.observe(7, http500);
    await advance(1_000);
    // The first report, again: the same failure, the same command id (the rooms service
    // applies an id once, so it counts once even if the first send did reach it).
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(ids[1]).toBe(ids[0]);
    expect(sent[0]).toEqual([{ webhookId: 7, lastSuccessAt: null, failuresAfterSuccess: 1, firstFailureAt: iso(0), lastFailureAt: iso(0), lastError: 'HTTP 500' }]);
    expect(health.pendingCount).toBe(1);
    down = false;
    jest.setSystemTime(T0 + 1_600);
    health.observe(7, timeout);
    await advance(1_000);
    // Answered at last; then what came since, in a report of its own.
    expect(sent).toHaveLength(4);
    expect(ids[2]).toBe(ids[0]);
    expect(sent[3]).toEqual([{ webhookId: 7, lastSuccessAt: null, failuresAfterSuccess: 2, firstFailureAt: iso(400), lastFailureAt: iso(1_600), lastError: 'timeout' }]);
    expect(ids[3]).not.toBe(ids[0]);
    await advance(5_000);
    expect(sent).toHaveLength(4);
    expect(health.pendingCount).toBe(0);
  });

  it('on shutdown, flushes a report not answered first, then what came since', async () => {
    let down = true;
    const { health, sent, ids } = reporter(async () => {
      if (down) throw new RpcFailure('not_sent', 'the message broker is unreachable');
      return { disabled: [] };
    });
    health.observe(1, http500);
    await advance(0);
    health.observe(2, ok);
    down = false;
    await health.flush();
    expect(sent.map((reports) => reports.map((r) => r.webhookId))).toEqual([[1], [1], [2]]);
    expect(ids[1]).toBe(ids[0]);
    expect(health.pendingCount).toBe(0);
    health.stop();
  });

  it('drops a report the rooms service refuses as malformed (it would be refused again)', async () => {
    const { health, sent } = reporter(async () => {
      throw new RpcCommandError(commandFailure('invalid', 'rule', 'reports', { problem: 'bad' }).error);
    });
    health.observe(1, http500);
    await advance(0);
    await advance(5_000);
    expect(sent).toHaveLength(1);
    expect(health.pendingCount).toBe(0);
  });

  it('flushes what is pending at once (shutdown)', async () => {
    const { health, sent } = reporter();
    health.observe(1, ok);
    await advance(0);
    health.observe(1, ok);
    health.observe(2, ok);
    await health.flush();
    expect(sent.map((reports) => reports.map((r) => r.webhookId))).toEqual([[1], [1, 2]]);
    health.stop();
  });
});

describe('healthErrorOf', () => {
  it('is a status or the kind of failure, never a body or a message', () => {
    expect(healthErrorOf({ kind: 'response', status: 200 })).toBeNull();
    expect(healthErrorOf({ kind: 'response', status: 299 })).toBeNull();
    expect(healthErrorOf({ kind: 'response', status: 302 })).toBe('HTTP 302');
    expect(healthErrorOf({ kind: 'response', status: 500, body: 'token=s3cret' } as never)).toBe('HTTP 500');
    expect(healthErrorOf({ kind: 'failure', failure: 'connection', message: 'connect ECONNREFUSED https://u:p@h' } as never)).toBe('connection');
  });
});

describe('HealthReporter for bridges', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: T0 });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('reports a bridge its platform said is gone at once, with the reason, to be disabled now', async () => {
    const { health, sent } = reporter();
    health.observe(9, ok);
    await advance(0);
    health.observe(9, http500);
    health.disableNow(9, 'Slack: channel_is_archived');
    await advance(0);
    expect(sent[1]).toEqual([expect.objectContaining({ webhookId: 9, failuresAfterSuccess: 1, disableNow: 'Slack: channel_is_archived' })]);
    health.observe(9, http500);
    await advance(1_000);
    expect(sent[2][0].disableNow).toBeUndefined();
  });
});
