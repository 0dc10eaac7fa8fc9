/**
 * A live connection as a client holds it: GET /v2/room/{room}/events over node:http, the
 * Server-Sent Events parsed as the HTML standard reads them (fields up to the blank line,
 * comments kept apart), every event and comment kept with when it arrived.
 */
import { ClientRequest, IncomingHttpHeaders, IncomingMessage, request } from 'node:http';

export interface SseMessage {
  id?: string;
  event?: string;
  data: string;
  /** `data` parsed as JSON. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  at: number;
}

export class LiveClient {
  readonly events: SseMessage[] = [];
  readonly comments: string[] = [];
  /** Resolves when the server ends the stream (or the client closes it). */
  readonly ended: Promise<void>;
  private buffer = '';
  private markEnded!: () => void;

  private constructor(readonly status: number, readonly headers: IncomingHttpHeaders, private readonly req: ClientRequest, res: IncomingMessage) {
    this.ended = new Promise((resolve) => (this.markEnded = resolve));
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => this.take(chunk));
    res.on('end', () => this.markEnded());
    res.on('close', () => this.markEnded());
    res.on('error', () => this.markEnded());
  }

  /** Opens a stream; the answer is in `status` (a refusal's JSON body in `body`). */
  static open(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<LiveClient & { body?: any }> {
    return new Promise((resolve, reject) => {
      const req = request(`${baseUrl}${path}`, { agent: false, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
        const client = new LiveClient(res.statusCode ?? 0, res.headers, req, res) as LiveClient & { body?: any };
        if (res.statusCode !== 200) {
          let text = '';
          res.removeAllListeners('data');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => {
            try {
              client.body = JSON.parse(text);
            } catch {
              client.body = text;
            }
            resolve(client);
          });
          return;
        }
        resolve(client);
      });
      req.on('error', reject);
      req.end();
    });
  }

  /** The `id`s of the events received, as numbers. */
  get ids(): number[] {
    return this.events.filter((e) => e.id !== undefined).map((e) => Number(e.id));
  }

  /** Waits until `count` events have come (or `timeoutMs` passed: then fails naming what came). */
  async waitForEvents(count: number, timeoutMs = 10_000): Promise<SseMessage[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} events, got ${this.events.length}: ${this.events.map((e) => `${e.id}:${e.event}`).join(', ')}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return this.events.slice(0, count);
  }

  close(): void {
    this.req.destroy();
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    for (let end = this.buffer.indexOf('\n\n'); end !== -1; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const fields: Partial<SseMessage> = {};
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          this.comments.push(line.slice(1));
          continue;
        }
        const colon = line.indexOf(':');
        const name = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (name === 'data') data.push(value);
        else if (name === 'id') fields.id = value;
        else if (name === 'event') fields.event = value;
      }
      if (data.length === 0 && fields.id === undefined && fields.event === undefined) continue;
      const text = data.join('\n');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      this.events.push({ ...fields, data: text, json, at: Date.now() });
    }
  }
}
