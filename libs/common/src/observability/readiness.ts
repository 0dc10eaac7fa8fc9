/**
 * Readiness: named probes of what a service needs to do its work (its database, broker,
 * Redis, its migrations), each given a short time to answer, the outcome cached briefly so
 * that a scrape storm or a dozen load balancers asking at once cost one check.
 */

/** Resolves true when the dependency is usable; false, a rejection or no answer in time mean it is not. */
export type ReadinessProbe = () => boolean | Promise<boolean>;

/** How a check's outcome is worded: connections are `up`/`down`, migrations `done`/`pending`. */
export type CheckWords = readonly [ok: string, notOk: string];

export const CONNECTION: CheckWords = ['up', 'down'];
export const MIGRATIONS: CheckWords = ['done', 'pending'];

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  /** Each check's state, by name (`{"postgres": "up", "migrations": "done"}`). */
  checks: Record<string, string>;
}

export interface CheckOutcome {
  name: string;
  ok: boolean;
  words: CheckWords;
}

/** Ready when every check is, with each named; no check at all is not ready (nothing has been declared yet). */
export function readinessReport(outcomes: readonly CheckOutcome[]): ReadinessReport {
  const checks: Record<string, string> = {};
  for (const o of outcomes) checks[o.name] = o.ok ? o.words[0] : o.words[1];
  const ready = outcomes.length > 0 && outcomes.every((o) => o.ok);
  return { status: ready ? 'ready' : 'not_ready', checks };
}

/** A probe's answer, false when it throws or takes longer than `timeoutMs`. */
export async function probeWithin(probe: ReadinessProbe, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([Promise.resolve().then(probe).then((ok) => ok === true, () => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ReadinessOptions {
  /** Longest a probe may take before its check counts as failed. */
  timeoutMs?: number;
  /** How long a report is reused. */
  cacheMs?: number;
  now?: () => number;
}

export class Readiness {
  private readonly probes = new Map<string, { probe?: ReadinessProbe; words: CheckWords }>();
  private readonly timeoutMs: number;
  private readonly cacheMs: number;
  private readonly now: () => number;
  private cached: { at: number; report: Promise<ReadinessReport> } | null = null;

  /**
   * `checks`: every check the service will have, declared up front so that a service still
   * starting (its probe not yet given, e.g. migrations under way) answers not ready naming it.
   */
  constructor(checks: Record<string, CheckWords>, options: ReadinessOptions = {}) {
    for (const [name, words] of Object.entries(checks)) this.probes.set(name, { words });
    this.timeoutMs = options.timeoutMs ?? 1_000;
    this.cacheMs = options.cacheMs ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  /** Gives a declared check its probe (once the dependency it looks at exists). */
  set(name: string, probe: ReadinessProbe): void {
    const entry = this.probes.get(name);
    if (!entry) throw new Error(`readiness check "${name}" was not declared`);
    entry.probe = probe;
    this.cached = null;
  }

  /** The current report: every probe run at once, each within the timeout; reused for `cacheMs`. */
  report(): Promise<ReadinessReport> {
    const at = this.now();
    if (this.cached && at - this.cached.at < this.cacheMs) return this.cached.report;
    const report = Promise.all([...this.probes].map(async ([name, { probe, words }]): Promise<CheckOutcome> => ({
      name, words, ok: probe ? await probeWithin(probe, this.timeoutMs) : false,
    }))).then(readinessReport);
    this.cached = { at, report };
    return report;
  }
}
