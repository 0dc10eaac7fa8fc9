import { Writable } from 'node:stream';
import pino from 'pino';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { accessLogHook } from './access-log';
import { attachToken } from './auth/request-token';

/** A logger like createUnredactedLogger's (no path redaction), writing into `lines`. */
function capture(): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

function request(url: string): FastifyRequest {
  return { method: 'POST', url } as unknown as FastifyRequest;
}

function reply(status: number, headers: Record<string, string> = {}): FastifyReply {
  return { statusCode: status, elapsedTime: 12.3456, getHeader: (name: string) => headers[name] } as unknown as FastifyReply;
}

describe('the access log line', () => {
  it('redacts every secret of the URL itself, with no help from pino', async () => {
    const { logger, lines } = capture();
    const secret = 'Xk2PqVdTfSecretSecret40charactersLongAbcd';
    const req = request(`/v1/rooms/message?format=json&auth_token=${secret}&room_id=Ops;token=${secret}`);
    attachToken(req, { id: 7 } as never);
    await accessLogHook(logger)(req, reply(200, { 'X-RateLimit-Remaining': '99' }));
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines[0])).not.toContain(secret);
    expect(lines[0]).toMatchObject({ msg: 'request', method: 'POST', status: 200, ms: 12.35, tokenId: 7, remaining: '99' });
    expect(lines[0].url).toContain('format=json');
    expect(lines[0].url).toContain('auth_token=');
  });

  it('names only the fields it builds: nothing of the request or reply objects rides along', async () => {
    const { logger, lines } = capture();
    const req = { ...request('/v2/room/Ops/notification'), headers: { authorization: 'Bearer abc' }, body: { password: 'x' } } as unknown as FastifyRequest;
    await accessLogHook(logger)(req, reply(204));
    expect(Object.keys(lines[0]).sort()).toEqual(['hostname', 'level', 'method', 'ms', 'msg', 'pid', 'status', 'time', 'url']);
  });
});
