import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { V2HttpRequest } from '../http/v2-request';

export interface ClientCredentials { id: string; secret: string }

/** `Authorization: Basic base64(id:secret)`, or null when the request has no such header. */
export function basicCredentials(header: string | undefined): ClientCredentials | null {
  const match = /^\s*Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** The OAuth client's HTTP Basic credentials (null when absent: the body may carry them). */
export const BasicCredentials = createParamDecorator((_: unknown, ctx: ExecutionContext): ClientCredentials | null =>
  basicCredentials(ctx.switchToHttp().getRequest<V2HttpRequest>().headers.authorization));
