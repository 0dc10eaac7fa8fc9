import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { z } from 'zod';
import { field } from '@app/contracts';
import { FloodControlled, Public, RequireScopes, Summary } from '../v2/http/route-options';
import { V2Body, V2Query } from '../v2/http/validation';
import { buildV2OpenApi, routeInfo } from './v2-openapi';

const body = z.object({ message: field.messageText, color: field.color.optional() });
const query = z.object({ 'max-results': z.string().optional() });

@Controller('v2/room')
class Sample {
  @Post(':room/notification')
  @HttpCode(204)
  @RequireScopes('send_notification')
  @FloodControlled()
  @Summary('Send a room notification')
  send(@V2Body(body) _b: unknown) { return undefined; }

  @Get()
  @RequireScopes('view_group', 'view_room')
  listRooms(@V2Query(query) _q: unknown) { return []; }

  @Get('/open')
  @Public()
  open(@Body() _b: unknown, @Query() _q: unknown) { return {}; }

  helper() { return 1; }
}

describe('v2 OpenAPI document from the routes as registered', () => {
  const instance = new Sample();
  const routes = ['send', 'listRooms', 'open', 'helper'].map((m) => routeInfo(instance, m));

  it('reads path, verb, status, scopes, flood control and the schemas of each route', () => {
    expect(routes[3]).toBeNull();
    expect(routes[0]).toMatchObject({
      method: 'post', path: '/v2/room/{room}/notification', status: 204, scopes: ['send_notification'],
      floodControlled: true, params: ['room'], summary: 'Send a room notification', body,
    });
    expect(routes[1]).toMatchObject({ method: 'get', path: '/v2/room', status: 200, summary: 'List rooms', query, scopes: ['view_group', 'view_room'] });
    expect(routes[2]).toMatchObject({ isPublic: true, body: undefined });
  });

  it('builds an OpenAPI 3.1 document with the enum values the rules allow', () => {
    const doc = buildV2OpenApi(routes.filter((r) => r !== null) as never, 'http://h') as any;
    expect(doc.openapi).toBe('3.1.0');
    const op = doc.paths['/v2/room/{room}/notification'].post;
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['204', '400', '401', '403', '404', '429']));
    const schema = op.requestBody.content['application/json'].schema;
    expect(schema.properties.color.enum).toEqual(['yellow', 'green', 'red', 'purple', 'gray', 'random']);
    expect(schema.required).toEqual(['message']);
    expect(doc.paths['/v2/room'].get.parameters.map((p: any) => p.name)).toEqual(['max-results']);
    expect(doc.paths['/v2/room/open'].get.security).toEqual([]);
  });
});
