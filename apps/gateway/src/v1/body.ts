import express, { Request, RequestHandler, Response } from 'express';

/**
 * v1 request bodies: form-encoded (what HipChat clients send) and JSON, up to `limit`
 * bytes. Parsed by the first v1 guard rather than by a global middleware, so that a
 * body-parser error (400, 413, 415) reaches the v1 filter and gets the v1 error body.
 */
export function v1BodyParser(limit: number): (req: Request, res: Response) => Promise<void> {
  const parsers: RequestHandler[] = [
    express.urlencoded({ extended: false, limit, parameterLimit: 100 }),
    express.json({ limit }),
  ];
  return async (req, res) => {
    for (const parser of parsers) {
      await new Promise<void>((resolve, reject) => parser(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
    }
  };
}
