import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { databaseUrl, removeTestState, retryScheduleOf, TEST_SECRETS_KEYS, testInfra, trackTestState, uniqueName } from './common';

export const ROOT = path.resolve(__dirname, '..', '..');
export const CLI = path.join(ROOT, 'dist', 'apps', 'rooms', 'apps', 'rooms', 'src', 'cli.js');

/**
 * A port on 127.0.0.1 that nothing listens on now, for a process that binds it later (seconds
 * later for a gateway, tens of seconds for a RabbitMQ node booting beside others). Chosen at
 * random below the kernel's ephemeral range, where no outgoing connection's source port lands:
 * a port from the range (what listen(0) hands out) can be taken meanwhile by any connection
 * the machine opens (a database client, a broker client), and a RabbitMQ node whose listener
 * finds its port taken does not boot ("rabbit_is_not_running"). Another test picking the same
 * port is left to chance: one in twenty thousand.
 */
export async function freePort(): Promise<number> {
  const low = Math.min(ephemeralLow(), 65_536);
  if (low - FIXED_PORTS_FROM >= 1_000) {
    for (let tries = 0; tries < 50; tries++) {
      const port = FIXED_PORTS_FROM + Math.floor(Math.random() * (low - FIXED_PORTS_FROM));
      if (await canListen(port)) return port;
    }
  }
  return listenOnAny();
}

/** Below this, the ports services are configured on (PostgreSQL, RabbitMQ, Redis, their web consoles). */
const FIXED_PORTS_FROM = 16_384;

/** The first port of the kernel's ephemeral range (Linux's ip_local_port_range; elsewhere 32768, below macOS's and Windows' 49152). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 0) return low;
  } catch {
    // not Linux
  }
  return 32_768;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function listenOnAny(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A launched `npm start` equivalent (scripts/start.js) with its output collected. */
export class Launched {
  readonly lines: string[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(readonly child: ChildProcess) {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      this.lines.push(...parts.filter(Boolean));
    });
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /** Structured log lines (JSON) matching `where`. */
  logs(where: (line: Record<string, unknown>) => boolean): Array<Record<string, unknown>> {
    return this.lines.flatMap((l) => {
      try {
        const parsed = JSON.parse(l) as Record<string, unknown>;
        return where(parsed) ? [parsed] : [];
      } catch {
        return [];
      }
    });
  }

  async waitForLog(where: (line: Record<string, unknown>) => boolean, timeoutMs = 15_000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [found] = this.logs(where);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`log line not seen within ${timeoutMs} ms; stderr: ${this.stderr.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Starts the three built services the way `npm start` does. */
export function launchSystem(env: Record<string, string>): Launched {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.js')], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Launched(child);
}

/** Polls `url` until it answers 2xx; `signal` ends the wait early (rejecting with its reason). */
export async function waitForHttp(url: string, timeoutMs = 30_000, signal?: AbortSignal): Promise<number> {
  const started = Date.now();
  for (;;) {
    signal?.throwIfAborted();
    try {
      // Each try bounded: whatever holds the port may accept and never answer.
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return Date.now() - started;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Runs the token CLI (`npm run --silent cli -- ...`) and returns its result. */
export function cli(args: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The built system launched as `npm start` runs it, on its own database and namespace. */
export interface TestSystem {
  env: Record<string, string>;
  launched: Launched;
  baseUrl: string;
  /** From launch to the first 200 of /health. */
  startupMs: number;
  /** Ctrl-C (SIGKILL after 15 s), then removes the database, broker namespace and Redis keys. */
  stop(): Promise<void>;
}

export async function startTestSystem(
  prefix: string,
  extraEnv: Record<string, string> = {},
  /** Where the gateway's port comes from (a test of the retry below gives a taken one first). */
  ports: () => Promise<number> = freePort,
): Promise<TestSystem> {
  // freePort's port is free when it answers, not when the gateway binds it seconds later:
  // another test's process may pick the same one meanwhile (rarely: freePort keeps out of the
  // range outgoing connections take their ports from). The gateway then exits with
  // EADDRINUSE, and the system is started again on another port; any other failure is
  // reported with what the services said.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startTestSystemOnce(prefix, extraEnv, await ports());
    } catch (err) {
      if (!(err instanceof PortTaken) || attempt === 3) throw err;
    }
  }
}

class PortTaken extends Error {}

async function startTestSystemOnce(prefix: string, extraEnv: Record<string, string>, port: number): Promise<TestSystem> {
  const infra = testInfra();
  const namespace = uniqueName(prefix);
  const dbUrl = databaseUrl(infra.pgServerUrl, uniqueName(`chat_${prefix}`));
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: baseUrl,
    DATABASE_URL: dbUrl,
    AMQP_URL: infra.amqpUrl,
    REDIS_URL: infra.redisUrl,
    BROKER_NAMESPACE: namespace,
    LOG_LEVEL: 'info',
    // Each service its own free port (test stacks run side by side): see metricsPorts.
    METRICS_PORT: '0',
    SECRETS_KEYS: TEST_SECRETS_KEYS,
    ...extraEnv,
  };
  const state = trackTestState({ namespace, databaseUrl: dbUrl, retryScheduleMs: retryScheduleOf(env) });
  const launched = launchSystem(env);
  const stop = async () => {
    if (launched.child.exitCode === null && launched.child.signalCode === null) {
      // SIGINT, as Ctrl-C: the launcher stops its three services (SIGKILL would orphan them).
      launched.child.kill('SIGINT');
      const stopped = await Promise.race([launched.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 15_000).unref())]);
      if (!stopped) {
        launched.child.kill('SIGKILL');
        await launched.exited;
      }
    }
    await removeTestState(infra, state);
  };
  try {
    // A launcher that exits (a service failed) ends the wait at once, with what it said.
    const exited = launched.exited.then(async ({ code, signal }) => {
      // 'exit' can come before the last of its output has been read: wait for the pipe to close.
      const stderr = launched.child.stderr!;
      if (!stderr.closed) await new Promise((r) => stderr.once('close', r));
      const said = launched.stderr.slice(-2_000);
      if (said.includes(`EADDRINUSE: address already in use 127.0.0.1:${port}`)) throw new PortTaken(`port ${port} was taken before the gateway bound it`);
      throw new Error(`the system exited (${signal ?? `code ${code}`}) before ${baseUrl}/health answered; stderr: ${said}`);
    });
    // (Later, stop() makes it exit too: nobody waits for that.)
    exited.catch(() => undefined);
    const gaveUp = new AbortController();
    const waiting = waitForHttp(`${baseUrl}/health`, 30_000, gaveUp.signal);
    waiting.catch(() => undefined);
    const startupMs = await Promise.race([waiting, exited]).finally(() => gaveUp.abort());
    // The rooms service and dispatcher are ready once they say so.
    await launched.waitForLog((l) => l.service === 'rooms' && l.msg === 'rooms service ready');
    await launched.waitForLog((l) => l.service === 'webhook-dispatcher' && l.msg === 'consuming room events');
    return { env, launched, baseUrl, startupMs, stop };
  } catch (err) {
    await stop();
    if (err instanceof PortTaken) throw err;
    // What the services logged at warn or above, for a start that hung rather than failed.
    const problems = launched.logs((l) => typeof l.level === 'string' && !['trace', 'debug', 'info'].includes(l.level)).slice(-10);
    throw new Error(`${(err as Error).message}\nservices logged: ${JSON.stringify(problems).slice(0, 3_000)}\nstderr: ${launched.stderr.slice(-1_000)}`);
  }
}
