import { commandFailure } from '@app/contracts';
import { Registry } from 'prom-client';
import type { AppLogger } from '../logging';
import type { AmqpBroker } from './amqp-broker';
import { AmqpCommandServer } from './command-server';
import type { CommandHandler, CommandMeta } from './rpc';

/** A server on a broker that only hands over its command handler, and a logger that keeps its lines. */
function server() {
  let serve: CommandHandler | undefined;
  const broker = { serveCommands: async (_q: string, _p: number, handler: CommandHandler) => { serve = handler; } } as unknown as AmqpBroker;
  const lines: Array<{ level: string; fields: Record<string, unknown>; msg: string }> = [];
  const log = (level: string) => (fields: Record<string, unknown>, msg: string) => lines.push({ level, fields, msg });
  const logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') } as unknown as AppLogger;
  const metrics = new Registry();
  const s = new AmqpCommandServer(broker, 'q', 10, logger, metrics);
  const meta = (pattern: string): CommandMeta => ({ pattern, commandId: 'c1', deadline: 0, redelivered: false });
  return {
    s, lines, metrics, meta,
    async listen() {
      await new Promise<void>((resolve, reject) => s.listen((err) => (err ? reject(err) : resolve())));
      return serve!;
    },
  };
}

describe('AmqpCommandServer', () => {
  it('answers each command with its handler\'s result, logging it at debug with its time', async () => {
    const t = server();
    t.s.addHandler('rooms.get.v1', async (payload: unknown) => ({ got: payload }), false);
    const serve = await t.listen();
    expect(await serve({ id: 3 }, t.meta('rooms.get.v1'))).toEqual({ ok: { got: { id: 3 } } });
    expect(t.lines).toEqual([{ level: 'debug', fields: { command: 'rooms.get.v1', ms: expect.any(Number) }, msg: 'command handled' }]);
  });

  it('answers a refusal with its error, logged once at info with its reason; another failure as internal, logged at error', async () => {
    const t = server();
    t.s.addHandler('rooms.get.v1', async () => { throw commandFailure('not_found', 'room_not_found', 'room'); }, false);
    t.s.addHandler('rooms.break.v1', async () => { throw new Error('boom'); }, false);
    const serve = await t.listen();
    expect(await serve({}, t.meta('rooms.get.v1'))).toEqual({ error: { code: 'not_found', reason: 'room_not_found', field: 'room' } });
    expect(await serve({}, t.meta('rooms.break.v1'))).toEqual({ error: { code: 'internal', reason: 'unexpected' } });
    expect(t.lines.map((l) => [l.level, l.msg, l.fields.command, l.fields.error])).toEqual([
      ['info', 'command refused', 'rooms.get.v1', 'room_not_found'],
      ['error', 'command failed', 'rooms.break.v1', undefined],
    ]);
    const series = (await t.metrics.getSingleMetric('rpc_server_call_duration_seconds')!.get()).values
      .filter((v) => (v as { metricName?: string }).metricName === 'rpc_server_call_duration_seconds_count')
      .map((v) => [v.labels.rpc_method, v.labels.outcome, v.value]);
    expect(series).toEqual(expect.arrayContaining([['rooms.get.v1', 'not_found', 1], ['rooms.break.v1', 'internal', 1]]));
  });

  it('answers a command it does not serve as invalid, without calling anything', async () => {
    const t = server();
    const serve = await t.listen();
    expect(await serve({}, t.meta('rooms.nope.v1'))).toEqual({ error: { code: 'invalid', reason: 'rule', detail: { problem: 'unknown command rooms.nope.v1' } } });
    expect(t.lines).toEqual([]);
  });
});
