import type { IncomingMessage, ServerResponse } from 'node:http';
import bodyParser from 'body-parser';

type RawParser = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;

/**
 * v1 request bodies: form-encoded (what HipChat clients send) and JSON, up to `limit`
 * bytes, read from the Node request (Fastify leaves v1 bodies unread: see bootstrap.ts).
 * Parsed by the first v1 guard rather than before routing, so that a body error (400, 413,
 * 415) reaches the v1 filter and gets the v1 error body, and a path no API serves never
 * reads its body. body-parser, not Fastify's parsers: it is what v1 clients were answered
 * by (content encodings, charsets, the parameter limit, strict JSON, qs's decoding).
 */
export function v1BodyParser(limit: number): (req: IncomingMessage, res: ServerResponse) => Promise<unknown> {
  const parsers: RawParser[] = [
    bodyParser.urlencoded({ extended: false, limit, parameterLimit: 100 }),
    bodyParser.json({ limit }),
  ];
  return async (req, res) => {
    for (const parser of parsers) {
      await new Promise<void>((resolve, reject) => parser(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
    }
    return (req as IncomingMessage & { body?: unknown }).body;
  };
}
