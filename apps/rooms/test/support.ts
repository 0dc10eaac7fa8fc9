import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';
import { ClientProxy, ClientProxyFactory, Transport } from '@nestjs/microservices';
import { brokerNames, CommandError, CreateUserReplyV1, UsersCommandV1 } from '@app/contracts';
import { Client } from 'pg';
import { firstValueFrom, timeout } from 'rxjs';

/**
 * Talks to the rooms service the way the gateway does: a Nest RMQ ClientProxy on the
 * namespace's command queue, request/reply with the versioned command patterns.
 */
export class RoomsRpc {
  private constructor(private readonly proxy: ClientProxy) {}

  static async connect(amqpUrl: string, namespace: string): Promise<RoomsRpc> {
    const proxy = ClientProxyFactory.create({
      transport: Transport.RMQ,
      options: {
        urls: [amqpUrl],
        queue: brokerNames(namespace).roomsCommandQueue,
        queueOptions: { durable: true },
      },
    });
    await proxy.connect();
    return new RoomsRpc(proxy);
  }

  send<T = any>(pattern: string, payload: unknown, timeoutMs = 10_000): Promise<T> {
    return firstValueFrom(this.proxy.send<T>(pattern, payload).pipe(timeout(timeoutMs)));
  }

  /** Sends a command that must be refused; returns what came back as the error. */
  async refused(pattern: string, payload: unknown): Promise<CommandError> {
    let reply: unknown;
    try {
      reply = await this.send(pattern, payload);
    } catch (err) {
      return err as CommandError;
    }
    throw new Error(`${pattern} should have been refused but answered ${JSON.stringify(reply)}`);
  }

  async createUser(name: string, extra: Record<string, unknown> = {}): Promise<CreateUserReplyV1['user']> {
    const slug = name.replace(/\W+/g, '').toLowerCase();
    const reply = await this.send<CreateUserReplyV1>(UsersCommandV1.create, {
      email: `${slug}@example.com`, name, ...extra,
    });
    return reply.user;
  }

  close(): Promise<void> {
    return this.proxy.close() as unknown as Promise<void>;
  }
}

/** Runs one SQL statement against a database, on a connection of its own. */
export async function sql<T = any>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export { eventually } from '../../../test/support/harness';

export const ACTOR = { label: 'integration-test' };

/**
 * A TCP forwarder in front of the real broker, so that one service can lose RabbitMQ
 * while the broker (shared by other tests) keeps running: `cut()` drops every connection
 * and refuses new ones, `restore()` accepts them again on the same port.
 */
export class BrokerLink {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  static async open(amqpUrl: string): Promise<BrokerLink> {
    const u = new URL(amqpUrl);
    const link = new BrokerLink({ host: u.hostname, port: Number(u.port || 5672) });
    await link.restore();
    return link;
  }

  /** The broker URL with the host and port of this link. */
  url(amqpUrl: string): string {
    const u = new URL(amqpUrl);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  restore(): Promise<void> {
    if (this.server) return Promise.resolve();
    const server = createServer((client) => {
      const upstream = connect(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        this.port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise((r) => server.close(() => r(undefined)));
  }
}
