import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
export const CLI = path.join(ROOT, 'dist', 'apps', 'rooms', 'apps', 'rooms', 'src', 'cli.js');

export function freePort(): Promise<number> {
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

export async function waitForHttp(url: string, timeoutMs = 30_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      const res = await fetch(url);
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
