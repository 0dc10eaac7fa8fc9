import { extendZodWithOpenApi, OpenAPIRegistry, OpenApiGeneratorV31, ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { HttpStatus, RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { z, ZodTypeAny } from 'zod';
import { accessRuleOf, AccessRule, whoMay } from '@app/contracts';
import {
  EVENT_STREAM, EventStreamDoc, FLOOD_CONTROLLED, NOTES, OTHER_ANSWERS, PUBLIC_ROUTE, RAW_BODY, REQUIRED_SCOPES, RESPONSE_SCHEMA, SESSION_ENOUGH, SIGNED_BODY, SUMMARY,
} from '../v2/http/route-options';
import { SESSION_COOKIE } from '../v2/session/session-cookie';
import type { V1Method } from '../v1/methods';
import { ZodBodyPipe, ZodQueryPipe } from '../v2/http/validation';

// The generator needs zod's `.openapi()` on parameter schemas.
extendZodWithOpenApi(z);

/** What the code says about one v2 route: everything the document is made of. */
export interface V2RouteInfo {
  method: string;
  /** OpenAPI form: /v2/room/{room}. */
  path: string;
  summary: string;
  scopes: string[];
  isPublic: boolean;
  /** A signed-in session may, whatever its scopes (@RequireSessionOrScopes). */
  sessionEnough: boolean;
  notes?: string;
  otherAnswers: Record<number, string>;
  floodControlled: boolean;
  rawBody: boolean;
  /** A body kept as bytes (@SignedBody): its shape per media type. */
  signedBody?: Record<string, ZodTypeAny>;
  status: number;
  params: string[];
  body?: ZodTypeAny;
  query?: ZodTypeAny;
  /** The success answer's shape, when the route declares it (@ResponseSchema). */
  response?: ZodTypeAny;
  /** A `text/event-stream` answer (@EventStream). */
  stream?: EventStreamDoc;
}

const joinPath = (...parts: string[]) => `/${parts.map((p) => p.replace(/^\/+|\/+$/g, '')).filter(Boolean).join('/')}`;

/** Reads a controller method's route the way Nest registered it (path, verb, status, pipes, our metadata). */
export function routeInfo(controller: object, methodName: string): V2RouteInfo | null {
  const handler = (controller as Record<string, unknown>)[methodName] as (...args: unknown[]) => unknown;
  const verb = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
  const methodPath = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
  if (verb === undefined || methodPath === undefined) return null;
  const ctor = controller.constructor;
  const controllerPath = String(Reflect.getMetadata(PATH_METADATA, ctor) ?? '');
  const nestPath = joinPath(controllerPath, Array.isArray(methodPath) ? methodPath[0] : methodPath);
  if (!nestPath.startsWith('/v2')) return null;
  const meta = <T>(key: string): T | undefined => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, ctor);
  const method = RequestMethod[verb].toLowerCase();

  let body: ZodTypeAny | undefined;
  let query: ZodTypeAny | undefined;
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, ctor, methodName) ?? {}) as Record<string, { pipes?: unknown[] }>;
  for (const [key, arg] of Object.entries(args)) {
    const type = Number(key.split(':')[0]);
    for (const pipe of arg.pipes ?? []) {
      if (type === RouteParamtypes.BODY && pipe instanceof ZodBodyPipe) body = pipe.schema;
      if (type === RouteParamtypes.QUERY && pipe instanceof ZodQueryPipe) query = pipe.schema;
    }
  }
  const words = methodName.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return {
    method,
    path: nestPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}'),
    summary: meta<string>(SUMMARY) ?? words.charAt(0).toUpperCase() + words.slice(1),
    scopes: meta<string[]>(REQUIRED_SCOPES) ?? [],
    isPublic: meta<boolean>(PUBLIC_ROUTE) ?? false,
    sessionEnough: meta<boolean>(SESSION_ENOUGH) ?? false,
    notes: meta<string>(NOTES),
    otherAnswers: meta<Record<number, string>>(OTHER_ANSWERS) ?? {},
    floodControlled: meta<boolean>(FLOOD_CONTROLLED) ?? false,
    rawBody: meta<boolean>(RAW_BODY) ?? false,
    signedBody: meta<Record<string, ZodTypeAny>>(SIGNED_BODY),
    status: Reflect.getMetadata(HTTP_CODE_METADATA, handler) ?? (method === 'post' ? HttpStatus.CREATED : HttpStatus.OK),
    params: [...nestPath.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]),
    body,
    query,
    response: meta<ZodTypeAny>(RESPONSE_SCHEMA),
    stream: meta<EventStreamDoc>(EVENT_STREAM),
  };
}

/** Who may call the operation, from the access model (docs/access.md has the whole table). */
function accessText(rule: AccessRule | undefined): string {
  if (!rule) return 'Who may: not in the access model.';
  return `Who may: ${whoMay(rule)}.${rule.note ? ` ${rule.note}` : ''}`;
}

/** `x-access`: the access model's row for the operation, for tools (and the access-matrix test). */
function accessExtension(rule: AccessRule | undefined): Record<string, unknown> {
  return rule ? { 'x-access': { audience: rule.audience ?? 'actors', may: rule.may } } : {};
}

const ERROR_BODY = z.object({ error: z.object({ code: z.number().int(), type: z.string(), message: z.string() }) });
const PARAM_TEXT: Record<string, string> = {
  room: 'Room id or name', user: 'User id, e-mail address or @mention name', message_id: 'Message id', id_or_shortcut: 'Emoticon id or shortcut',
  token: 'The secret of the invitation link (what follows #/invitation/ in it)',
};

/**
 * The v1 methods as OpenAPI operations, from each method's own declaration (V1Method.doc):
 * parameters in the query string, or on POST in the form body (the query string is read too).
 */
function registerV1Methods(registry: OpenAPIRegistry, methods: Readonly<Record<string, V1Method<any, any>>>, error: (d: string) => ResponseConfig): void {
  const common = {
    auth_token: z.string().describe('An admin token, or a notification token for rooms/message and rooms/topic'),
    format: z.enum(['json', 'xml']).optional().describe('json (default) or xml, in any case'),
    auth_test: z.string().optional().describe('A flag (1/0, true/false, any case). True: only check the token (202), do nothing; any other value answers 400'),
  };
  for (const [name, m] of Object.entries(methods).sort(([a], [b]) => a.localeCompare(b))) {
    const params = Object.fromEntries(Object.entries(m.doc.params).map(([p, d]) => [p, d.required ? z.string().describe(d.description) : z.string().optional().describe(d.description)]));
    for (const verb of m.verbs) {
      const post = verb === 'POST';
      const access = accessRuleOf(`v1 ${name}`);
      registry.registerPath({
        method: post ? 'post' : 'get',
        path: `/v1/${name}`,
        summary: m.doc.summary,
        description: `${accessText(access)} Version 1 API. Tokens: ${m.kinds.join(' or ')}.`,
        ...accessExtension(access),
        tags: ['v1'],
        security: [{ auth_token: [] }],
        request: post
          ? { query: z.object({ auth_token: common.auth_token.optional(), format: common.format }), body: { required: true, content: { 'application/x-www-form-urlencoded': { schema: z.object({ ...common, ...params }) } } } }
          : { query: z.object({ ...common, ...params }) },
        responses: {
          200: { description: 'Success (JSON, or XML with format=xml).', content: { 'application/json': { schema: z.object({}).passthrough() } } },
          202: { description: 'auth_test=true (or 1): the token may call this method.' },
          400: error('A parameter breaks its rule; the message names it.'),
          401: error('No token, or an unknown one.'),
          403: error('The token may not call this method, or its rate limit is exceeded.'),
          404: error('No such room or user.'),
          405: error('This method does not take this HTTP verb (see Allow).'),
          406: error('A format other than json or xml.'),
          503: error('A dependency is unavailable; nothing was done.'),
        },
      });
    }
  }
}

/**
 * The OpenAPI 3.1 document of the service: the v2 API from its routes as registered, the v1
 * methods from their declarations, and our extensions (the delivery log) among the v2 routes.
 */
export function buildV2OpenApi(routes: V2RouteInfo[], baseUrl: string, v1Methods: Readonly<Record<string, V1Method<any, any>>> = {}): Record<string, unknown> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer', description: 'A personal, room or add-on token' });
  registry.registerComponent('securitySchemes', 'auth_token', { type: 'apiKey', in: 'query', name: 'auth_token' });
  registry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey', in: 'cookie', name: SESSION_COOKIE,
    description: 'The web console\'s session (POST /v2/session): acts as its user with the scopes a personal token of theirs may have (admin_group for group admins only). A request it authenticates with a method other than GET, HEAD or OPTIONS must carry X-CSRF-Token: <csrf_token> (403 otherwise). A bearer token, when present, wins and needs no CSRF token.',
  });
  const error = (description: string): ResponseConfig => ({ description, content: { 'application/json': { schema: ERROR_BODY } } });

  for (const r of [...routes].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))) {
    const access = accessRuleOf(`${r.method.toUpperCase()} ${r.path}`);
    const notes = [
      accessText(access),
      r.isPublic ? 'Public: no token needed; limited per client address (PUBLIC_RATE_LIMIT_MAX per PUBLIC_RATE_LIMIT_WINDOW_SECONDS, X-Ratelimit-* headers; 429 with Retry-After past it).' : `Token scopes: ${r.scopes.length ? `one of ${r.scopes.join(', ')}` : 'any'}${r.sessionEnough ? ', or any signed-in session' : ''}.`,
      r.floodControlled ? 'Counted by the room\'s flood control when accepted (X-FloodControl-* headers; 429 past it).' : '',
      r.stream?.description ?? '',
      r.notes ?? '',
    ].filter(Boolean).join(' ');
    const success = r.stream
      ? { description: 'The stream (Server-Sent Events).', content: { 'text/event-stream': { schema: z.string() } } }
      : { description: r.status === 204 ? 'Done; no body.' : 'Success.', ...(r.status === 204 ? {} : { content: { 'application/json': { schema: r.response ?? z.object({}).passthrough() } } }) };
    const config: RouteConfig = {
      method: r.method as RouteConfig['method'],
      path: r.path,
      summary: r.summary,
      description: notes,
      tags: [r.path.split('/')[2] ?? 'v2'],
      ...accessExtension(access),
      security: r.isPublic ? [] : [{ bearer: r.scopes }, { auth_token: r.scopes }, { session: [] }],
      request: {
        ...(r.params.length ? { params: z.object(Object.fromEntries(r.params.map((p) => [p, z.string().describe(PARAM_TEXT[p] ?? p)]))) } : {}),
        // A query checked across its parameters too (superRefine) is documented by its parameters.
        ...(r.query instanceof z.ZodObject ? { query: r.query } : r.query instanceof z.ZodEffects && r.query.innerType() instanceof z.ZodObject ? { query: r.query.innerType() } : {}),
        ...(r.stream?.query instanceof z.ZodObject ? { query: r.stream.query } : {}),
        ...(r.stream?.headers instanceof z.ZodObject ? { headers: r.stream.headers } : {}),
        ...(r.body ? { body: { required: true, content: { 'application/json': { schema: r.body } } } } : {}),
        ...(r.signedBody ? { body: { required: true, content: Object.fromEntries(Object.entries(r.signedBody).map(([type, schema]) => [type, { schema }])) } } : {}),
        ...(r.rawBody ? { body: { required: true, content: { 'multipart/form-data': { schema: z.object({}).passthrough() }, 'multipart/related': { schema: z.object({}).passthrough() } } } } : {}),
      },
      responses: {
        [r.status]: success,
        400: error('A parameter or field breaks its rule; the message names it.'),
        ...(r.isPublic ? { 429: error('Too many requests from this client address (Retry-After says when to try again).') } : {
          401: error('No token, or an unknown one (or no session cookie, or an ended session).'),
          403: error('The token lacks the scope, or may not act on this room; or a session cookie without its X-CSRF-Token on a change.'),
          429: error('The token\'s rate limit or the room\'s flood control exceeded; or too many requests with unknown tokens from this client address (AUTH_FAILURE_RATE_LIMIT_MAX per AUTH_FAILURE_RATE_LIMIT_WINDOW_SECONDS), refused before the token is looked up, with that count in X-Ratelimit-*. Retry-After says when to try again.'),
        }),
        404: error('No such room, user or message.'),
        503: error('A dependency is unavailable; nothing was done.'),
        ...Object.fromEntries(Object.entries(r.otherAnswers).map(([status, when]) => [status, error(when)])),
      },
    };
    try {
      registry.registerPath(config);
    } catch {
      registry.registerPath({ ...config, request: { ...config.request, body: undefined, query: undefined } });
    }
  }
  registerV1Methods(registry, v1Methods, error);
  const generator = new OpenApiGeneratorV31(registry.definitions);
  return generator.generateDocument({
    openapi: '3.1.0',
    info: { title: 'Chat Room Service: HipChat API', version: '2', description: 'The HipChat v2 REST API (and the v1 methods, tagged v1) as this service speaks it. Errors: {"error": {"code", "type", "message"}}. A /v2 path no operation serves answers 404; one served under other methods answers 405 with Allow listing them (OPTIONS answers 204 with the same Allow); neither reads the token. Every answer to a token carries X-Ratelimit-Limit, X-Ratelimit-Remaining and X-Ratelimit-Reset. Besides tokens, the web console\'s session cookie (POST /v2/session) authenticates any v2 operation; with it, every method but GET, HEAD and OPTIONS needs X-CSRF-Token.' },
    servers: [{ url: baseUrl }],
  }) as unknown as Record<string, unknown>;
}
