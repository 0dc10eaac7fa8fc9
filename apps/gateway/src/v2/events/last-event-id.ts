import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiError } from '../../shared/api-error';
import { V2HttpRequest } from '../http/v2-request';

/** The query parameter that stands for the Last-Event-ID header (for clients that cannot set headers). */
export const LAST_EVENT_ID_PARAM = 'last_event_id';

/**
 * Where a live connection resumes: the `Last-Event-ID` header (EventSource sends it when it
 * reconnects), else the `last_event_id` query parameter; null when neither is given (an
 * empty value counts as none). Anything but a whole number is a 400 naming it.
 */
export function readLastEventId(header: unknown, query: unknown): number | null {
  const [value, name] = header !== undefined && header !== '' ? [header, 'Last-Event-ID'] : [query, LAST_EVENT_ID_PARAM];
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value.trim())) {
    throw new ApiError(400, `${name}: must be the id of an event of this stream, a whole number (got ${JSON.stringify(String(value).slice(0, 50))})`);
  }
  return Number(value.trim());
}

export const LastEventId = createParamDecorator((_: unknown, ctx: ExecutionContext): number | null => {
  const req = ctx.switchToHttp().getRequest<V2HttpRequest>();
  return readLastEventId(req.headers['last-event-id'], (req.query as Record<string, unknown>)[LAST_EVENT_ID_PARAM]);
});
