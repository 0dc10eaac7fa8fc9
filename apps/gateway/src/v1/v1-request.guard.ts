import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { GATEWAY_CONFIG, GatewayConfig } from '../config';
import { RequestParams } from '../shared/request-params';
import { v1BodyParser } from './body';
import { V1Error } from './errors';
import { findV1Method, servedVerbs, V1Method } from './methods';
import { parseFormat } from './render';
import { flag } from './rules';
import { V1HttpRequest } from './v1-request';

/**
 * First step of every v1 request: the body, the parameters (decoded and checked once, for
 * everything after: 400 naming a parameter that cannot be read), the answer format (406
 * if it cannot be served), the method (404 if unknown), the HTTP verb (405; HEAD wherever a GET only reads) and `auth_test` (400 if not a flag).
 */
@Injectable()
export class V1RequestGuard implements CanActivate {
  private readonly parseBody: ReturnType<typeof v1BodyParser>;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.parseBody = v1BodyParser(config.BODY_LIMIT_BYTES);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<V1HttpRequest>();
    req.body = await this.parseBody(req.raw, context.switchToHttp().getResponse<FastifyReply>().raw);
    const params = RequestParams.decode(req.query, req.body);
    const format = parseFormat(params.optional('format'));
    req.v1 = { format: format ?? 'json' };
    if (format === null) throw new V1Error(406, `format: must be json or xml (got "${params.optional('format')}")`);

    const name = `${req.params.resource}/${req.params.action}`;
    const method = v1MethodServing(name, req.method);
    // Read as every v1 flag is, and here, before the token: a value that is not a flag (`yes`)
    // must be refused, never taken as false (that would perform the change it meant to test).
    Object.assign(req.v1, { name, method, params, authTest: flag(params, 'auth_test', false) });
    return true;
  }
}

/**
 * The v1 method `name` if it is served under `verb`: else 404 when there is no such method,
 * 405 naming the verbs it takes (in Allow too) when it takes others. Also asked by the
 * fallback filter for a verb the router does not route at all (PURGE).
 */
export function v1MethodServing(name: string, verb: string): V1Method<any, any> {
  const method = findV1Method(name);
  if (!method) throw new V1Error(404, `Unknown API method: ${name}`);
  const verbs = servedVerbs(method);
  if (!verbs.includes(verb)) throw new V1Error(405, `${name} must be called with ${verbs.join(' or ')}`, { Allow: verbs.join(', ') });
  return method;
}
