import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthenticatedToken } from '@app/contracts';
import type { FastifyRequest } from 'fastify';
import type { RateLimitState } from '../shared/rate-limit/rate-limit';
import type { RequestParams } from '../shared/request-params';
import type { V1Method } from './methods';
import type { V1Format } from './render';

/** What the guards learn about a v1 request, in the order they learn it. */
export interface V1RequestState {
  format: V1Format;
  name?: string;
  method?: V1Method<any, any>;
  params?: RequestParams;
  authTest?: boolean;
  token?: AuthenticatedToken;
  /** The token's count, once taken: every answer from then on carries its headers. */
  rateLimit?: RateLimitState;
}

/** A v1 request once both guards let it through. */
export type V1Call = Required<V1RequestState>;

export type V1HttpRequest = FastifyRequest<{ Params: { resource?: string; action?: string } }> & { v1?: V1RequestState };

/** The format to answer in, read from the raw request (json when absent or unusable). */
export function requestedFormat(req: V1HttpRequest): V1Format {
  if (req.v1) return req.v1.format;
  const raw = (req.body as Record<string, unknown> | undefined)?.format ?? (req.query as Record<string, unknown> | undefined)?.format;
  return typeof raw === 'string' && raw.toLowerCase() === 'xml' ? 'xml' : 'json';
}

/** The v1 call the guards prepared: handlers read this, never the request. */
export const V1CallParam = createParamDecorator((_: unknown, ctx: ExecutionContext): V1Call =>
  ctx.switchToHttp().getRequest<V1HttpRequest>().v1 as V1Call);
