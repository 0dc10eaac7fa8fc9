import type { FastifyReply } from 'fastify';
import type { LiveSink } from './live-connection';
import { sseComment } from './sse';

const EVENT_STREAM = 'text/event-stream; charset=utf-8';

/** How long an ended stream may take to hand its last bytes to a client before the socket is dropped. */
const END_GRACE_MS = 10_000;

/**
 * Takes over an HTTP response as a `text/event-stream` (Fastify lets go of it): status 200,
 * the headers set so far (the rate limit's), no caching or proxy buffering, then a first
 * comment so that the client and any proxy see the stream open at once. A HEAD request gets
 * the same status and headers, and the response ends there: a HEAD has no body, and Node
 * would hold the headers back until the end of a stream that never ends.
 */
export function sseSink(reply: FastifyReply): LiveSink {
  reply.hijack();
  const res = reply.raw;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = String(value);
  const all = {
    ...headers,
    'Content-Type': EVENT_STREAM,
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    // nginx would otherwise hold the events back in its buffer.
    'X-Accel-Buffering': 'no',
  };
  // Set one by one (not given to writeHead) so that they stay readable on the response:
  // the request metrics tell a stream from a request by its content type (http-metrics' isEventStream).
  for (const [name, value] of Object.entries(all)) res.setHeader(name, value);
  res.writeHead(200);
  if (reply.request.method === 'HEAD') res.end();
  else res.write(sseComment(' live'));
  return {
    write: (text) => {
      if (!res.writableEnded && !res.destroyed) res.write(text);
    },
    pendingBytes: () => res.writableLength,
    end: () => {
      if (res.writableEnded) return;
      res.end();
      // A client that reads nothing would keep the socket (and what waits in it) forever.
      setTimeout(() => res.destroy(), END_GRACE_MS).unref();
    },
    onClose: (listener) => {
      res.once('close', listener);
    },
  };
}
