/**
 * A RabbitMQ cluster of its own for one test, started on this machine from the installed
 * `rabbitmq-server` (Debian's package): each node with its own name (`chat-<run>-<n>@localhost`),
 * AMQP and distribution ports (free ones, on 127.0.0.1), data, log and pid files under one
 * temporary folder, and an Erlang cookie of its own, so that the machine's own node (5672)
 * is never touched. The test stops and starts nodes (`stopNode`, `startNode`) and reads what
 * RabbitMQ says of its queues and connections through rabbitmqctl.
 *
 * A run that died without stopping its nodes leaves its folder (named after its process):
 * the next cluster started stops those nodes and removes the folder. RABBIT_CLUSTER_KEEP=1
 * keeps the folder (the nodes' logs) after a run, until the next.
 */
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { eventually } from './common';
import { freePort } from './processes';

/** Where Debian, Ubuntu and the RPM packages keep the real scripts: `/usr/sbin`'s only switch to the `rabbitmq` user. */
const PACKAGED_SCRIPTS = '/usr/lib/rabbitmq/bin';
const FOLDER_PREFIX = 'chat-rabbit-cluster-';

/**
 * The folder of the installed RabbitMQ's scripts (rabbitmq-server, rabbitmqctl, rabbitmq-queues),
 * or null when `rabbitmq-server` is installed neither on the PATH nor in /usr/sbin.
 */
export function rabbitmqScripts(): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'].filter(Boolean);
  const server = dirs.map((d) => join(d, 'rabbitmq-server')).find((f) => existsSync(f));
  if (!server) return null;
  // The packaged wrapper runs the scripts as the `rabbitmq` user with its HOME and log files:
  // the test's nodes run the scripts themselves, as whoever runs the test.
  if (existsSync(join(PACKAGED_SCRIPTS, 'rabbitmq-server'))) return PACKAGED_SCRIPTS;
  return dirname(realpathSync(server));
}

export interface ClusterNode {
  /** Erlang node name, e.g. chat-ab12cd-1@localhost. */
  name: string;
  /** AMQP port on 127.0.0.1. */
  port: number;
  url: string;
}

/** A queue as `rabbitmqctl list_queues name type members online leader` shows it. */
export interface QueueState {
  name: string;
  type: string;
  /** Quorum queues: the nodes holding a replica, and those of them running. */
  members: string[];
  online: string[];
  leader: string;
}

/** One replica of a quorum queue (`rabbitmq-queues quorum_status`). */
export interface ReplicaState {
  node: string;
  raftState: string;
  commitIndex: number;
}

interface NodeProcess extends ClusterNode {
  dir: string;
  distPort: number;
  child?: ChildProcess;
  exited?: Promise<void>;
}

export class RabbitCluster {
  private constructor(
    private readonly scripts: string,
    /** The run's folder: cookie (home), each node's data, logs and pid file. */
    readonly dir: string,
    private readonly members: NodeProcess[],
  ) {}

  get nodes(): readonly ClusterNode[] {
    return this.members.map(({ name, port, url }) => ({ name, port, url }));
  }

  /** One AMQP URL per node, in node order: what AMQP_URL lists (comma-separated). */
  get amqpUrls(): string[] {
    return this.members.map((n) => n.url);
  }

  /**
   * Starts `size` nodes and clusters them (the others join the first). Resolves once every
   * node runs the broker and sees the others.
   */
  static async start(size = 3): Promise<RabbitCluster> {
    const scripts = rabbitmqScripts();
    if (!scripts) throw new Error('rabbitmq-server is not installed (Debian/Ubuntu: apt-get install rabbitmq-server)');
    await stopLeftovers(scripts);
    const dir = mkdtempSync(join(tmpdir(), `${FOLDER_PREFIX}${process.pid}-`));
    const run = basename(dir).slice(-6).toLowerCase().replace(/[^a-z0-9]/g, 'x');
    mkdirSync(join(dir, 'home'));
    writeFileSync(join(dir, 'home', '.erlang.cookie'), randomBytes(24).toString('hex').toUpperCase(), { mode: 0o400 });
    // No plugins (the management plugin would want port 15672), and none of /etc/rabbitmq's settings.
    writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
    writeFileSync(join(dir, 'rabbitmq-env.conf'), '');
    const members: NodeProcess[] = [];
    for (let i = 1; i <= size; i++) {
      const port = await freePort();
      const nodeDir = join(dir, `node${i}`);
      mkdirSync(nodeDir);
      writeFileSync(join(nodeDir, 'rabbitmq.conf'), `listeners.tcp.1 = 127.0.0.1:${port}\n`);
      members.push({ name: `chat-${run}-${i}@localhost`, port, url: `amqp://guest:guest@127.0.0.1:${port}`, dir: nodeDir, distPort: await freePort() });
    }
    writeFileSync(join(dir, 'nodes.json'), JSON.stringify(members.map((m) => m.name)));
    const cluster = new RabbitCluster(scripts, dir, members);
    try {
      await Promise.all(members.map((_, i) => cluster.startNode(i)));
      const [first, ...others] = members;
      for (const node of others) {
        await cluster.ctl(node, 'stop_app');
        await cluster.ctl(node, 'join_cluster', first.name);
        await cluster.ctl(node, 'start_app');
      }
      const running = await cluster.runningNodes();
      if (running.length !== size) throw new Error(`the cluster runs ${running.join(', ')}; expected ${size} nodes`);
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /** Starts node `i` (from 0), or starts it again with its data: it rejoins the cluster by itself. */
  async startNode(i: number): Promise<void> {
    const node = this.members[i];
    if (node.child) throw new Error(`${node.name} is running`);
    const pidFile = join(node.dir, 'pid');
    if (existsSync(pidFile)) unlinkSync(pidFile);
    const out = openSync(join(node.dir, 'console.log'), 'a');
    const child = spawn(join(this.scripts, 'rabbitmq-server'), [], { env: this.nodeEnv(node), stdio: ['ignore', out, out] });
    closeSync(out);
    child.unref();
    node.child = child;
    node.exited = new Promise((resolve) => child.once('exit', () => {
      node.child = undefined;
      resolve();
    }));
    const died = node.exited.then(() => {
      throw new Error(`${node.name} exited while starting:\n${this.logTail(i)}`);
    });
    // `wait` follows the pid file until the broker inside the node has started. It fails at
    // once on a pid file it finds half written ("garbage_in_pid_file"), so it is called only
    // once the file holds a whole number.
    const pidWritten = eventually(() => {
      if (node.child && !/^\d+/.test(readFileSync(pidFile, 'utf8'))) throw new Error(`${pidFile} holds no process id yet`);
    }, 90_000);
    // A node that exited is reported by `died`.
    const booted = pidWritten.then(() => (node.child ? this.ctl(node, 'wait', pidFile, '--timeout', '90') : undefined)).catch((err: Error) => {
      // "rabbit_is_not_running": the node runs, its broker did not boot. The log says why.
      throw new Error(`${err.message}\n${this.logTail(i)}`);
    });
    await Promise.race([booted, died]);
    died.catch(() => undefined);
  }

  /** Stops node `i` as an operator would (rabbitmqctl stop): its clients are disconnected, its replicas stop. */
  async stopNode(i: number): Promise<void> {
    const node = this.members[i];
    if (!node.child) return;
    // The child is the rabbitmq-server script, which waits for the node (the pid file's process).
    await this.ctl(node, 'stop').catch(() => killNode(node.dir, node.name));
    await node.exited;
  }

  /** The nodes the cluster says are running, as a running node sees them. */
  async runningNodes(): Promise<string[]> {
    const status = JSON.parse(await this.ctl(this.aRunningNode(), 'cluster_status', '--formatter', 'json'));
    return (status.running_nodes as string[]).sort();
  }

  /** Every queue of the cluster, as a running node lists it. */
  async queues(): Promise<QueueState[]> {
    const out = await this.ctl(this.aRunningNode(), 'list_queues', 'name', 'type', 'members', 'online', 'leader', '--formatter', 'json', '--timeout', '30');
    return (JSON.parse(out) as QueueState[]).map((q) => ({ ...q, members: [...(q.members ?? [])].sort(), online: [...(q.online ?? [])].sort() }));
  }

  /** The replicas of a quorum queue: which is leader, and how far each has committed. */
  async replicas(queue: string): Promise<ReplicaState[]> {
    const out = await this.run('rabbitmq-queues', ['-n', this.aRunningNode().name, 'quorum_status', queue, '--formatter', 'json']);
    return (JSON.parse(out) as Array<Record<string, unknown>>).map((r) => ({
      node: String(r['Node Name']), raftState: String(r['Raft State']), commitIndex: Number(r['Commit Index']),
    }));
  }

  /**
   * Null when node `i` can stop without any quorum queue losing its majority; else what
   * RabbitMQ says (the queues it is critical for).
   */
  async quorumCritical(i: number): Promise<string | null> {
    return this.run('rabbitmq-queues', ['-n', this.members[i].name, 'check_if_node_is_quorum_critical'])
      .then(() => null, (err: Error) => err.message);
  }

  /** For each client connection, the index of the node it is connected to. */
  async connectionNodes(): Promise<number[]> {
    const out = await this.ctl(this.aRunningNode(), 'list_connections', 'name', '--formatter', 'json');
    // A connection's name is "client address:port -> node address:port".
    return (JSON.parse(out) as Array<{ name: string }>).map(({ name }) => {
      const port = Number(/:(\d+)$/.exec(name)?.[1]);
      return this.members.findIndex((m) => m.port === port);
    });
  }

  /** The end of node `i`'s log, for a failure message. */
  logTail(i: number, lines = 40): string {
    const node = this.members[i];
    const files = [join(node.dir, 'log', `${node.name}.log`), join(node.dir, 'console.log')].filter((f) => existsSync(f));
    return files.map((f) => `--- ${f}\n${readFileSync(f, 'utf8').split('\n').slice(-lines).join('\n')}`).join('\n');
  }

  /** Stops every node and removes the run's folder. */
  async stop(): Promise<void> {
    await Promise.all(this.members.map((_, i) => this.stopNode(i).catch(() => undefined)));
    if (!process.env.RABBIT_CLUSTER_KEEP) rmSync(this.dir, { recursive: true, force: true });
  }

  private aRunningNode(): NodeProcess {
    const node = this.members.find((m) => m.child);
    if (!node) throw new Error('no node of the cluster is running');
    return node;
  }

  private nodeEnv(node: NodeProcess): NodeJS.ProcessEnv {
    return {
      ...cliEnv(this.dir),
      RABBITMQ_NODENAME: node.name,
      RABBITMQ_DIST_PORT: String(node.distPort),
      RABBITMQ_CONFIG_FILE: join(node.dir, 'rabbitmq.conf'),
      RABBITMQ_ENABLED_PLUGINS_FILE: join(this.dir, 'enabled_plugins'),
      RABBITMQ_MNESIA_BASE: join(node.dir, 'mnesia'),
      RABBITMQ_LOG_BASE: join(node.dir, 'log'),
      RABBITMQ_PID_FILE: join(node.dir, 'pid'),
      // Inter-node traffic on the loopback interface only.
      RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-kernel inet_dist_use_interface {127,0,0,1}',
    };
  }

  private ctl(node: NodeProcess, ...args: string[]): Promise<string> {
    return this.run('rabbitmqctl', ['-n', node.name, ...args]);
  }

  private run(tool: string, args: string[]): Promise<string> {
    return runTool(this.scripts, this.dir, tool, args);
  }
}

/** The environment of the run's nodes and of the CLI tools that talk to them: the run's cookie (in HOME) and no /etc/rabbitmq settings. */
function cliEnv(dir: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('RABBITMQ_')));
  return { ...env, HOME: join(dir, 'home'), RABBITMQ_CONF_ENV_FILE: join(dir, 'rabbitmq-env.conf') };
}

function runTool(scripts: string, dir: string, tool: string, args: string[], timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(join(scripts, tool), args, { env: cliEnv(dir), cwd: dir, timeout: timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${tool} ${args.join(' ')} failed: ${stderr.trim() || stdout.trim() || err.message}`));
      else resolve(stdout);
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Kills the node whose pid file is in `nodeDir`, when that process is still the node (its
 * command line names it): for a node that does not answer rabbitmqctl.
 */
function killNode(nodeDir: string, name: string): void {
  try {
    const pid = Number(readFileSync(join(nodeDir, 'pid'), 'utf8').trim());
    if (pid > 0 && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(name)) process.kill(pid, 'SIGKILL');
  } catch {
    // no pid file, or the process is gone
  }
}

/** Stops the nodes of runs whose process is gone (killed before their afterAll) and removes their folders. */
async function stopLeftovers(scripts: string): Promise<void> {
  for (const entry of readdirSync(tmpdir())) {
    const owner = new RegExp(`^${FOLDER_PREFIX}(\\d+)-`).exec(entry);
    if (!owner || alive(Number(owner[1]))) continue;
    const dir = join(tmpdir(), entry);
    let names: string[] = [];
    try {
      names = JSON.parse(readFileSync(join(dir, 'nodes.json'), 'utf8'));
    } catch {
      // started no node
    }
    await Promise.all(names.map((name, i) => runTool(scripts, dir, 'rabbitmqctl', ['-n', name, 'stop'], 60_000)
      .catch(() => killNode(join(dir, `node${i + 1}`), name))));
    rmSync(dir, { recursive: true, force: true });
  }
}
