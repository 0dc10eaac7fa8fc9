import type { Request } from 'express';
import type { AuthenticatedToken } from '@app/contracts';
import type { V1MethodSpec } from './methods';
import type { V1Params } from './params';
import type { V1Format } from './render';

/** What the guards learn about a v1 request, in the order they learn it. */
export interface V1RequestState {
  format: V1Format;
  name?: string;
  method?: V1MethodSpec;
  params?: V1Params;
  authTest?: boolean;
  token?: AuthenticatedToken;
}

export type V1HttpRequest = Request & { v1?: V1RequestState; user?: AuthenticatedToken };

/** The format to answer in, read from the raw request (json when absent or unusable). */
export function requestedFormat(req: V1HttpRequest): V1Format {
  if (req.v1) return req.v1.format;
  const raw = (req.body as Record<string, unknown> | undefined)?.format ?? (req.query as Record<string, unknown>)?.format;
  return raw === 'xml' ? 'xml' : 'json';
}
