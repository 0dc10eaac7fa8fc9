import { EventEmitter } from 'node:events';
import type { FastifyReply } from 'fastify';
import { sseSink } from './sse-sink';

/** A response as sseSink uses it: what was written, and whether it ended. */
function fakeReply(method: string) {
  const raw = Object.assign(new EventEmitter(), {
    headers: {} as Record<string, string>, status: 0, written: [] as string[], writableEnded: false, destroyed: false, writableLength: 0,
    setHeader(name: string, value: string) { raw.headers[name] = value; },
    writeHead(status: number) { raw.status = status; },
    write(text: string) { raw.written.push(text); return true; },
    end() { raw.writableEnded = true; },
    destroy() { raw.destroyed = true; },
  });
  const reply = { hijack: () => undefined, raw, request: { method }, getHeaders: () => ({ 'x-ratelimit-limit': '100' }) };
  return { reply: reply as unknown as FastifyReply, raw };
}

describe('sseSink', () => {
  it('opens a GET as an event stream: 200, the stream\'s headers and the ones set before, a first comment, kept open', () => {
    const { reply, raw } = fakeReply('GET');
    const sink = sseSink(reply);
    sink.write('data: 1\n\n');
    expect(raw.status).toBe(200);
    expect(raw.headers).toMatchObject({ 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform', 'x-ratelimit-limit': '100' });
    expect(raw.written).toEqual([': live\n\n', 'data: 1\n\n']);
    expect(raw.writableEnded).toBe(false);
  });

  it('answers a HEAD with the same status and headers, and ends it there (no stream that never ends)', () => {
    const { reply, raw } = fakeReply('HEAD');
    const sink = sseSink(reply);
    sink.write('data: 1\n\n');
    expect(raw.status).toBe(200);
    expect(raw.headers['Content-Type']).toBe('text/event-stream; charset=utf-8');
    expect(raw.written).toEqual([]);
    expect(raw.writableEnded).toBe(true);
  });
});
