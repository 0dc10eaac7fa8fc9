/**
 * The system on a RabbitMQ cluster: three nodes of its own started on this machine
 * (test/support/rabbit-cluster.ts), the built services as `npm start` runs them with
 * AMQP_QUEUE_TYPE=quorum and AMQP_URL listing the three nodes, a webhook on a room's
 * notifications, and a burst of notifications posted through v1, twenty a second. A third
 * of the way in, the node every service is connected to (the first of AMQP_URL, where the
 * queues' leaders are) is stopped as an operator stops it; later it is started again.
 *
 * What a user may count on: every notification the gateway accepted (2xx) is in the room's
 * history and reached the webhook (a duplicate delivery is counted, a lost one fails the
 * test); one refused with 503 is in neither, one answered 504 in both or neither; posting and
 * deliveries go on once the services have moved to another node; and when the node is back,
 * every quorum queue has its three replicas again, caught up, so that another node can then
 * stop without anything pausing.
 *
 * Needs `rabbitmq-server` installed (not running: the test starts its own nodes); skipped,
 * saying so, where it is not.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brokerNames } from '@app/contracts';
import { eventually } from '../support/common';
import { v2Call } from '../support/http';
import { cli, startTestSystem, TestSystem } from '../support/processes';
import { rabbitmqScripts, RabbitCluster } from '../support/rabbit-cluster';
import { Receiver } from './support-webhooks';

const NODES = 3;
const BURST = 300;
/** 15 s of notifications: the node stops 5 s in. */
const PER_SECOND = 20;
const STOP_AT = 100;
/** Posted once the services have moved: every one must be accepted and delivered. */
const AFTER = 30;
const ROOM = 'Cluster';
const HOOK = '/cluster-hook';

const installed = rabbitmqScripts() !== null;
if (!installed) {
  // eslint-disable-next-line no-console
  console.warn('Skipping the RabbitMQ cluster test: rabbitmq-server is not installed (Debian/Ubuntu: apt-get install rabbitmq-server; the test starts its own nodes).');
}

(installed ? describe : describe.skip)('the system on a three-node RabbitMQ cluster, one node stopped mid-burst', () => {
  let cluster: RabbitCluster;
  let stack: TestSystem;
  let receiver: Receiver;
  let admin: string;
  let namespaceQueues: (q: { name: string }) => boolean;
  const started = Date.now();

  /** The notifications' texts the receiver got, with how many times each came. */
  const delivered = () => {
    const counts = new Map<string, number>();
    for (const hit of receiver.to(HOOK)) {
      const text = String(hit.json?.item?.message?.message);
      counts.set(text, (counts.get(text) ?? 0) + 1);
    }
    return counts;
  };

  const post = (text: string) => fetch(`${stack.baseUrl}/v1/rooms/message`, {
    method: 'POST',
    body: new URLSearchParams({ auth_token: admin, room_id: ROOM, from: 'CI', message: text, message_format: 'text' }),
  }).then((r) => r.status, () => 0);

  /** The room's history, as v1 shows it: every message of each day the test has run on (UTC). */
  async function history(): Promise<string[]> {
    const days = new Set([new Date(started), new Date()].map((d) => d.toISOString().slice(0, 10)));
    const texts: string[] = [];
    for (const date of days) {
      const res = await fetch(`${stack.baseUrl}/v1/rooms/history?${new URLSearchParams({ auth_token: admin, room_id: ROOM, date })}`);
      expect(res.status).toBe(200);
      texts.push(...((await res.json()).messages as Array<{ message: string }>).map((m) => m.message));
    }
    return texts;
  }

  beforeAll(async () => {
    cluster = await RabbitCluster.start(NODES);
    stack = await startTestSystem('e2e_cluster', {
      AMQP_URL: cluster.amqpUrls.join(','),
      AMQP_QUEUE_TYPE: 'quorum',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.2/32',
      RATE_LIMIT_MAX: '100000',
    });
    // The durable queues (the exclusive ones are amq.gen-*).
    namespaceQueues = (q) => q.name.startsWith(`${stack.env.BROKER_NAMESPACE}.`);
    receiver = await Receiver.start('127.0.0.2');
    admin = cli(['token', 'create', '--type', 'admin'], stack.env).stdout.trim();
    const form = (body: Record<string, string>) => ({ method: 'POST', body: new URLSearchParams({ auth_token: admin, ...body }) });
    expect((await fetch(`${stack.baseUrl}/v1/users/create`, form({ email: 'ops@example.com', name: 'Ops Lead' }))).status).toBe(200);
    expect((await fetch(`${stack.baseUrl}/v1/rooms/create`, form({ name: ROOM, owner_user_id: '1' }))).status).toBe(200);
    const personal = cli(['token', 'create', '--type', 'personal', '--user', 'ops@example.com'], stack.env).stdout.trim();
    const made = await v2Call(stack.baseUrl, personal, 'POST', `/room/${ROOM}/webhook`, { url: receiver.route(HOOK, { status: 204 }), event: 'room_notification', name: 'cluster' });
    expect(made.status).toBe(201);
  }, 150_000);

  /**
   * Runs a test's body; when it fails, what the services logged at warn or above (the last 60
   * lines, on the test's output, which is what CI keeps) and every line (in a file) go with
   * the failure: a stall here was once seen and could not be looked into without them.
   */
  async function keepingLogs(name: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (err) {
      const file = path.join(tmpdir(), `rabbit-cluster-${name}-${Date.now()}.log`);
      writeFileSync(file, `${stack.launched.lines.join('\n')}\n--- stderr\n${stack.launched.stderr}`);
      const problems = stack.launched.logs((l) => typeof l.level === 'string' && !['trace', 'debug', 'info'].includes(l.level)).slice(-60);
      process.stdout.write(`rabbit cluster (${name}) failed; every service log line is in ${file}; warn and above:\n`
        + `${problems.map((l) => JSON.stringify(l).slice(0, 400)).join('\n')}\n`);
      throw err;
    }
  }

  afterAll(async () => {
    await receiver?.stop();
    await stack?.stop();
    await cluster?.stop();
  }, 90_000);

  it('declares every durable queue a quorum queue with a replica on each node, and connects every service to the first node', async () => {
    const queues = (await cluster.queues()).filter(namespaceQueues);
    const names = brokerNames(stack.env.BROKER_NAMESPACE);
    expect(queues.map((q) => q.name)).toEqual(expect.arrayContaining([names.roomsCommandQueue, names.dispatcherEventsQueue, names.deliveriesQueue]));
    const all = cluster.nodes.map((n) => n.name).sort();
    expect(queues.filter((q) => q.type !== 'quorum' || q.members.join() !== all.join() || q.online.join() !== all.join())).toEqual([]);
    const on = await cluster.connectionNodes();
    expect(on.length).toBeGreaterThanOrEqual(3);
    expect(new Set(on)).toEqual(new Set([0]));
  });

  it('loses no accepted notification when that node stops mid-burst, and goes on delivering on the others', () => keepingLogs('burst', async () => {
    const status = new Map<string, number>();
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    let stoppedAt = 0;
    /** Posted (the request begun) once the node had stopped. */
    const afterStop = new Set<string>();
    const begunAt = new Map<string, number>();
    const tookMs = new Map<string, number>();
    const record = (text: string) => {
      if (stoppedAt) afterStop.add(text);
      begunAt.set(text, Date.now());
      return post(text).then((s) => {
        status.set(text, s);
        tookMs.set(text, Date.now() - begunAt.get(text)!);
      });
    };

    // Paced, not waiting for answers: a request the failover holds up does not hold up the next.
    const begun = Date.now();
    const posts: Array<Promise<void>> = [];
    let stopping: Promise<void> | undefined;
    for (let k = 0; k < BURST; k++) {
      const wait = begun + (k * 1000) / PER_SECOND - Date.now();
      if (wait > 0) await pause(wait);
      if (k === STOP_AT) stopping = cluster.stopNode(0).then(() => void (stoppedAt = Date.now()));
      posts.push(record(`burst ${k}`));
    }
    await Promise.all(posts);
    await stopping;

    // Every service lost its node and is connected to another.
    for (const service of ['gateway', 'rooms', 'webhook-dispatcher']) {
      expect(stack.launched.logs((l) => l.service === service && String(l.msg).includes('connection lost')).length).toBeGreaterThan(0);
    }
    await eventually(async () => {
      const on = await cluster.connectionNodes();
      expect(on.length).toBeGreaterThanOrEqual(3);
      expect(on).not.toContain(0);
    }, 30_000);

    // Posting goes on: accepted again within the rooms service's command timeout and a few
    // reconnections (each try a message of its own: a 504 may have been applied), then every one.
    let tries = 0;
    await eventually(async () => {
      const text = `retry ${tries++}`;
      await record(text);
      expect(status.get(text)).toBe(200);
    }, 45_000);
    for (let k = 0; k < AFTER; k++) await record(`after ${k}`);
    expect([...status].filter(([t, s]) => t.startsWith('after ') && s !== 200)).toEqual([]);

    // 200 accepted; 503 refused, nothing done; 504 handed over, unanswered: done or not.
    expect([...status].filter(([, s]) => ![200, 503, 504].includes(s))).toEqual([]);
    const accepted = [...status].filter(([, s]) => s === 200).map(([t]) => t);
    const refused = [...status].filter(([, s]) => s === 503).map(([t]) => t);
    const unknown = [...status].filter(([, s]) => s === 504).map(([t]) => t);

    // Every accepted notification reaches the webhook: none lost (duplicates are counted below).
    await eventually(() => expect(accepted.filter((t) => !delivered().has(t))).toEqual([]), 60_000);
    const inHistory = await history();
    // Each is recorded once: the rooms service applies a command once, a redelivered one too.
    expect(inHistory.filter((t, i) => inHistory.indexOf(t) !== i)).toEqual([]);
    const recorded = new Set(inHistory);
    expect(accepted.filter((t) => !recorded.has(t))).toEqual([]);
    expect(refused.filter((t) => recorded.has(t))).toEqual([]);
    // What was recorded was delivered (a 504 that was applied too), and nothing else was.
    await eventually(() => expect([...recorded].filter((t) => !delivered().has(t))).toEqual([]), 30_000);
    expect([...delivered().keys()].filter((t) => !recorded.has(t))).toEqual([]);

    const twice = [...delivered()].filter(([, n]) => n > 1);
    // The longest time during which no post begun was accepted.
    let outageMs = 0;
    let since = 0;
    for (const [text, at] of [...begunAt].sort((a, b) => a[1] - b[1])) {
      if (status.get(text) !== 200) since ||= at;
      else if (since) [outageMs, since] = [Math.max(outageMs, at - since), 0];
    }
    process.stdout.write(`rabbit cluster: ${accepted.length} of ${status.size} notifications accepted (${refused.length} 503, `
      + `${unknown.length} 504 of which ${unknown.filter((t) => recorded.has(t)).length} applied); ${afterStop.size} posted once the node had stopped, `
      + `${[...afterStop].filter((t) => status.get(t) === 200).length} of them accepted; none accepted for ${(outageMs / 1000).toFixed(1)} s, `
      + `the slowest accepted in ${(Math.max(...accepted.map((t) => tookMs.get(t)!)) / 1000).toFixed(1)} s; `
      + `${twice.length} delivered more than once; connections lost: ${['gateway', 'rooms', 'webhook-dispatcher'].map((service) =>
        `${service} ${stack.launched.logs((l) => l.service === service && String(l.msg).includes('connection lost')).length}`).join(', ')}\n`);
  }), 180_000);

  it('replicates every quorum queue on all three nodes again once the node is back, so that another can stop', () => keepingLogs('rejoin', async () => {
    await cluster.startNode(0);
    const all = cluster.nodes.map((n) => n.name).sort();
    await eventually(async () => {
      const queues = (await cluster.queues()).filter(namespaceQueues);
      expect(queues.filter((q) => q.online.join() !== all.join())).toEqual([]);
      for (let i = 0; i < NODES; i++) expect(await cluster.quorumCritical(i)).toBeNull();
      for (const q of queues) {
        const replicas = await cluster.replicas(q.name);
        const leader = replicas.find((r) => r.raftState === 'leader');
        expect({ queue: q.name, replicas }).toEqual({
          queue: q.name,
          replicas: expect.arrayContaining(all.map((node) => expect.objectContaining({ node, commitIndex: leader?.commitIndex }))),
        });
      }
    }, 60_000);

    // The returned node's replicas count: with the node most services are on now stopped, it
    // and the remaining one make each queue's majority, and notifications still go through.
    const on = await cluster.connectionNodes();
    const next = [1, 2].sort((a, b) => on.filter((n) => n === b).length - on.filter((n) => n === a).length)[0];
    await cluster.stopNode(next);
    const texts = Array.from({ length: 10 }, (_, k) => `again ${k}`);
    for (const text of texts) await eventually(async () => expect(await post(text)).toBe(200), 30_000);
    // As long as after the first stop (60 s): 30 s failed once in four full runs on a slow
    // machine, every post accepted and none delivered by then. Not a publish left waiting for
    // its confirm (lost-confirms.int-spec shows those fail at once); the cause is not known.
    await eventually(() => expect(texts.filter((t) => !delivered().has(t))).toEqual([]), 60_000);
  }), 180_000);
});
