import Fastify, { FastifyInstance } from 'fastify';
import { parse as parseQuery } from 'node:querystring';
import { MAX_PARAM_LENGTH, methodsServing } from './routing';

describe('the methods a path is served under', () => {
  let fastify: FastifyInstance;

  beforeAll(async () => {
    // The gateway's router options (bootstrap.ts), with routes shaped like v2's.
    fastify = Fastify({ routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH, querystringParser: (q: string) => parseQuery(q) } });
    const handler = async () => 'ok';
    fastify.post('/v2/room', handler);
    fastify.get('/v2/room', handler);
    fastify.get('/v2/room/:room', handler);
    fastify.put('/v2/room/:room', handler);
    fastify.delete('/v2/room/:room', handler);
    fastify.post('/v2/room/:room/notification', handler);
    fastify.get('/v2/room/:room/webhook/:id/delivery/:delivery', handler);
    await fastify.ready();
  });
  afterAll(() => fastify.close());

  it('lists them in Allow order, HEAD wherever GET is', () => {
    expect(methodsServing(fastify, '/v2/room')).toEqual(['GET', 'HEAD', 'POST']);
    expect(methodsServing(fastify, '/v2/room/Ops')).toEqual(['GET', 'HEAD', 'PUT', 'DELETE']);
    expect(methodsServing(fastify, '/v2/room/Ops/notification')).toEqual(['POST']);
    expect(methodsServing(fastify, '/v2/room/Ops/webhook/1/delivery/x')).toEqual(['GET', 'HEAD']);
  });

  it('matches the concrete path as the router does: encoded, any case, a trailing slash, a query string', () => {
    expect(methodsServing(fastify, '/v2/room/Ops%20Team')).toEqual(['GET', 'HEAD', 'PUT', 'DELETE']);
    expect(methodsServing(fastify, '/V2/ROOM/a%2Fb/')).toEqual(['GET', 'HEAD', 'PUT', 'DELETE']);
    expect(methodsServing(fastify, '/v2/room/Ops/notification?auth_token=x&format=xml')).toEqual(['POST']);
  });

  it('is empty for a path no route matches', () => {
    expect(methodsServing(fastify, '/v2/nothing')).toEqual([]);
    expect(methodsServing(fastify, '/v2/room/Ops/nothing/at/all')).toEqual([]);
    expect(methodsServing(fastify, '/v2/room/Ops/webhook/1/delivery')).toEqual([]);
  });

  it('is empty for a path the router cannot read, which it would answer under every method', () => {
    expect(methodsServing(fastify, '/v2/room/%zz')).toEqual([]);
    expect(methodsServing(fastify, '/v2/room/%C3')).toEqual([]);
    expect(methodsServing(fastify, `/v2/room/${'a'.repeat(MAX_PARAM_LENGTH + 1)}`)).toEqual([]);
    expect(methodsServing(fastify, `/v2/room/${'a'.repeat(MAX_PARAM_LENGTH)}`)).toEqual(['GET', 'HEAD', 'PUT', 'DELETE']);
  });
});
