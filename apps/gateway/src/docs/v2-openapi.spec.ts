import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { z } from 'zod';
import { field } from '@app/contracts';
import { FloodControlled, Public, RequireScopes, ResponseSchema, Summary } from '../v2/http/route-options';
import { RoomEventsController } from '../v2/events/events.controller';
import { RoomsController } from '../v2/rooms/rooms.controller';
import { WebhooksController } from '../v2/webhooks/webhooks.controller';
import { WebhookDeliveriesController } from '../v2/webhooks/webhook-deliveries.controller';
import { SessionController } from '../v2/session/session.controller';
import { TokensController } from '../v2/tokens/tokens.controller';
import { BridgeInboundController } from '../v2/bridges/inbound.controller';
import { AuditController } from '../v2/audit/audit.controller';
import { UsersController } from '../v2/users/users.controller';
import { InvitationController } from '../v2/session/invitation.controller';
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
  @ResponseSchema(z.object({ ok: z.boolean().describe('Whether it is open') }))
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
    // A declared answer shape is shown; others are any object.
    expect(doc.paths['/v2/room/open'].get.responses['200'].content['application/json'].schema.properties.ok)
      .toEqual({ type: 'boolean', description: 'Whether it is open' });
  });
});

describe('v2 OpenAPI document: webhooks', () => {
  // Read from the prototype: routeInfo needs the metadata, not an instance with its dependencies.
  const controller = Object.create(WebhooksController.prototype) as object;
  const names = Object.getOwnPropertyNames(WebhooksController.prototype).filter((m) => m !== 'constructor');
  const doc = buildV2OpenApi(names.map((m) => routeInfo(controller, m)).filter((r) => r !== null) as never, 'http://h') as any;
  const HEALTH = ['enabled', 'last_success_at', 'failing_since', 'consecutive_failures', 'disabled_reason'];

  it('shows the health of each webhook record: by id, by key and in the list', () => {
    const schemaOf = (path: string) => doc.paths[path].get.responses['200'].content['application/json'].schema;
    for (const path of ['/v2/room/{room}/webhook/{id}', '/v2/room/{room}/extension/webhook/{key}']) {
      expect(Object.keys(schemaOf(path).properties)).toEqual(expect.arrayContaining(HEALTH));
      expect(schemaOf(path).properties.failing_since.type).toEqual(['string', 'null']);
    }
    const list = schemaOf('/v2/room/{room}/webhook');
    expect(Object.keys(list.properties.items.items.properties)).toEqual(expect.arrayContaining(HEALTH));
  });

  it('has the enable route: POST, 204, admin_room', () => {
    const op = doc.paths['/v2/room/{room}/webhook/{id}/enable'].post;
    expect(op.summary).toMatch(/^Enable a webhook again/);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['204', '400', '401', '403', '404']));
    expect(op.security).toEqual([{ bearer: ['admin_room'] }, { auth_token: ['admin_room'] }, { session: [] }]);
    expect(op.parameters.map((p: any) => p.name)).toEqual(['room', 'id']);
  });
});

describe('v2 OpenAPI document: the delivery log', () => {
  const doc = buildV2OpenApi([routeInfo(Object.create(WebhookDeliveriesController.prototype) as object, 'list')!], 'http://h') as any;
  const op = doc.paths['/v2/room/{room}/webhook/{id}/delivery'].get;

  it('documents after, the cursor links.next carries, beside start-index and the filters', () => {
    expect(op.parameters.map((p: any) => `${p.in}:${p.name}`))
      .toEqual(['path:room', 'path:id', 'query:start-index', 'query:max-results', 'query:status', 'query:event', 'query:since', 'query:after']);
    const after = op.parameters.find((p: any) => p.name === 'after');
    expect(after.required).toBeFalsy();
    expect(after.schema.type).toBe('string');
    expect(after.description).toMatch(/links\.next carries it/);
  });
});

describe('v2 OpenAPI document: room statistics', () => {
  const doc = buildV2OpenApi([routeInfo(Object.create(RoomsController.prototype) as object, 'statistics')!], 'http://h') as any;
  const op = doc.paths['/v2/room/{room}/statistics'].get;

  it('documents GET, 200 with its answer\'s shape, read as the room is (view_group or view_room)', () => {
    expect(op.summary).toBe('Get a room\'s statistics');
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404']));
    const schema = op.responses['200'].content['application/json'].schema;
    expect(Object.keys(schema.properties)).toEqual(['messages_sent', 'last_active', 'links']);
    expect(schema.properties.messages_sent.type).toBe('integer');
    expect(schema.properties.last_active.type).toEqual(['string', 'null']);
    expect(op.security).toEqual(expect.arrayContaining([{ bearer: ['view_group', 'view_room'] }]));
    expect(op.parameters.map((p: any) => p.name)).toEqual(['room']);
  });
});

describe('v2 OpenAPI document: a bridge\'s inbound URL', () => {
  const doc = buildV2OpenApi([routeInfo(Object.create(BridgeInboundController.prototype) as object, 'receive')!], 'http://h') as any;
  const op = doc.paths['/v2/bridge/inbound/{key}'].post;

  it('documents a public POST, 200, its form and JSON bodies (the platforms\' shapes), 401 for a missing token or HMAC, 404 for a key of none', () => {
    expect(op.security).toEqual([]);
    expect(Object.keys(op.requestBody.content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(Object.keys(op.requestBody.content['application/x-www-form-urlencoded'].schema.properties)).toEqual(expect.arrayContaining(['token', 'text', 'user_name']));
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '415', '429']));
    expect(op.parameters.map((p: any) => p.name)).toEqual(['key']);
  });
});

describe('v2 OpenAPI document: live events', () => {
  const controller = Object.create(RoomEventsController.prototype) as object;
  const doc = buildV2OpenApi([routeInfo(controller, 'events')!], 'http://h') as any;
  const op = doc.paths['/v2/room/{room}/events'].get;

  it('documents a text/event-stream answer for view_messages, resumed by Last-Event-ID or last_event_id', () => {
    expect(Object.keys(op.responses['200'].content)).toEqual(['text/event-stream']);
    // The console opens it with its session cookie (EventSource sends cookies, not headers).
    expect(op.security).toEqual([{ bearer: ['view_messages'] }, { auth_token: ['view_messages'] }, { session: [] }]);
    expect(op.parameters.map((p: any) => `${p.in}:${p.name}`)).toEqual(expect.arrayContaining(['path:room', 'query:last_event_id', 'header:Last-Event-ID']));
    expect(op.description).toMatch(/last_event_id_expired/);
    expect(op.responses['401'].content['application/json']).toBeDefined();
  });
});

describe('v2 OpenAPI document: console sign-in and API tokens', () => {
  const routesOf = (ctor: { prototype: object }) => Object.getOwnPropertyNames(ctor.prototype).filter((m) => m !== 'constructor')
    .map((m) => routeInfo(Object.create(ctor.prototype) as object, m)).filter((r) => r !== null);
  const doc = buildV2OpenApi([...routesOf(SessionController), ...routesOf(TokensController)] as never, 'http://h') as any;

  it('documents the session cookie as a way to authenticate, with its CSRF rule', () => {
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'chat_session' });
    expect(doc.components.securitySchemes.session.description).toMatch(/X-CSRF-Token/);
    expect(doc.paths['/v2/token'].get.security).toEqual([{ bearer: ['admin_group'] }, { auth_token: ['admin_group'] }, { session: [] }]);
    expect(doc.paths['/v2/token'].get.description).toMatch(/or any signed-in session/);
  });

  it('has sign-in (201, public, its body, 401/415/429), who is signed in, and sign-out (204)', () => {
    const signIn = doc.paths['/v2/session'].post;
    expect(signIn.security).toEqual([]);
    expect(Object.keys(signIn.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '415', '429']));
    expect(signIn.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
    expect(Object.keys(signIn.responses['201'].content['application/json'].schema.properties)).toEqual(['user', 'csrf_token', 'expires']);
    expect(signIn.description).toMatch(/HttpOnly; SameSite=Lax; Path=\//);
    expect(doc.paths['/v2/session'].get.responses['200']).toBeDefined();
    expect(doc.paths['/v2/session'].delete.responses['204']).toBeDefined();
  });

  it('has the tokens API: list, create (the clear token once), revoke', () => {
    expect(doc.paths['/v2/token'].post.responses['201'].content['application/json'].schema.properties.token).toEqual({ type: 'string' });
    expect(doc.paths['/v2/token'].post.requestBody.content['application/json'].schema.properties.kind.enum).toEqual(['personal', 'admin', 'notification']);
    expect(doc.paths['/v2/token/{id}'].delete.responses['204']).toBeDefined();
  });
});

describe('v2 OpenAPI document: administration', () => {
  const doc = buildV2OpenApi([
    routeInfo(Object.create(AuditController.prototype) as object, 'list')!,
    routeInfo(Object.create(UsersController.prototype) as object, 'invite')!,
    routeInfo(Object.create(UsersController.prototype) as object, 'holdings')!,
    routeInfo(Object.create(InvitationController.prototype) as object, 'create')!,
  ], 'http://h') as any;

  it('documents the audit log\'s filters beside its page', () => {
    const op = doc.paths['/v2/audit'].get;
    expect(op.parameters.map((p: any) => `${p.in}:${p.name}`))
      .toEqual(['query:start-index', 'query:max-results', 'query:actor', 'query:action', 'query:room', 'query:since', 'query:until']);
    expect(op.parameters.find((p: any) => p.name === 'action').schema.enum).toContain('user.invitation_accepted');
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '404']));
  });

  it('documents the invitation, its acceptance (public, JSON, the session\'s answer) and the holdings, each with its answer\'s shape', () => {
    const invite = doc.paths['/v2/user/{user}/invitation'].post;
    expect(Object.keys(invite.responses['201'].content['application/json'].schema.properties)).toEqual(['url', 'expires', 'user']);
    expect(invite.security).toEqual(expect.arrayContaining([{ bearer: ['admin_group'] }]));
    const accept = doc.paths['/v2/invitation/{token}'].post;
    expect(accept.security).toEqual([]);
    expect(Object.keys(accept.requestBody.content['application/json'].schema.properties)).toEqual(['password']);
    expect(Object.keys(accept.responses['201'].content['application/json'].schema.properties)).toEqual(['user', 'csrf_token', 'expires']);
    expect(Object.keys(accept.responses)).toEqual(expect.arrayContaining(['400', '404', '429']));
    const holdings = doc.paths['/v2/user/{user}/holdings'].get;
    expect(Object.keys(holdings.responses['200'].content['application/json'].schema.properties)).toEqual(expect.arrayContaining([
      'rooms_owned', 'private_rooms', 'api_tokens', 'sessions', 'webhooks', 'bridges', 'is_group_admin', 'on_delete', 'on_demote',
    ]));
  });
});
