import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { V1Error } from './errors';
import { V1_METHODS } from './methods';
import { V1Params } from './params';
import { parseFormat } from './render';
import { V1HttpRequest } from './v1-request';

/**
 * First step of every v1 request: the answer format (400 if unusable), the method
 * (404 if unknown, 405 for the wrong HTTP verb) and the merged parameters.
 */
@Injectable()
export class V1RequestGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<V1HttpRequest>();
    const params = new V1Params(req.query as Record<string, unknown>, req.body as Record<string, unknown>);
    const format = parseFormat(params.optional('format'));
    req.v1 = { format: format ?? 'json' };
    if (format === null) throw new V1Error(400, `format: must be json or xml (got "${params.optional('format')}")`);

    const name = `${req.params.resource}/${req.params.action}`;
    const method = Object.prototype.hasOwnProperty.call(V1_METHODS, name) ? V1_METHODS[name] : undefined;
    if (!method) throw new V1Error(404, `Unknown API method: ${name}`);
    // HEAD is refused too: on rooms/message a GET acts, and HEAD must never act.
    if (!(method.verbs as readonly string[]).includes(req.method)) {
      throw new V1Error(405, `${name} must be called with ${method.verbs.join(' or ')}`, { Allow: method.verbs.join(', ') });
    }
    Object.assign(req.v1, { name, method, params, authTest: params.optional('auth_test')?.toLowerCase() === 'true' });
    return true;
  }
}
