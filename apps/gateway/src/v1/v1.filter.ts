import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, AppLogger, RpcCommandError, RpcFailure } from '@app/common';
import type { CommandError } from '@app/contracts';
import type { FastifyReply } from 'fastify';
import { rateLimitHeaders } from '../shared/rate-limit/rate-limit';
import { RequestRateLimiter } from '../shared/rate-limit/request-rate-limiter';
import { ParamProblem } from '../shared/request-params';
import { RoomsOutage } from '../shared/rooms-client';
import { V1Error } from './errors';
import { render } from './render';
import { requestedFormat, V1HttpRequest } from './v1-request';

/** v1's names for the fields of commands (the others are the same in both). */
const V1_PARAMS: Readonly<Record<string, string>> = {
  room: 'room_id',
  owner: 'owner_user_id',
  user: 'user_id',
  mentionName: 'mention_name',
  messageFormat: 'message_format',
  guestAccess: 'guest_access',
  isGroupAdmin: 'is_group_admin',
  includeDeleted: 'include_deleted',
};

export const v1ParamOf = (field: string): string => (Object.prototype.hasOwnProperty.call(V1_PARAMS, field) ? V1_PARAMS[field] : field);

export const MESSAGES = {
  /** The command certainly did not run: the client may retry. */
  unavailable: 'The rooms service is unavailable; nothing was done. Try again shortly.',
  /** A query went unanswered: nothing to undo either way. */
  queryTimedOut: 'The rooms service did not answer in time; try again shortly.',
  /** A change went unanswered: it may have been applied, and a blind retry could apply it twice. */
  outcomeUnknown: 'The rooms service did not answer in time; the request may or may not have been applied. Check before trying again.',
  failed: 'The request could not be completed.',
} as const;

/** A command's API-neutral error, worded as the v1 API always worded it. */
export function v1ErrorOfCommand(error: CommandError): V1Error {
  const detail = error.detail ?? {};
  const param = error.field ? v1ParamOf(error.field) : undefined;
  switch (error.reason) {
    case 'room_not_found':
      return new V1Error(404, `Room not found: ${detail.ref ?? ''}`);
    case 'user_not_found':
      return new V1Error(404, error.field === 'owner' ? `User not found: owner_user_id ${detail.ref ?? ''}` : `User not found: ${detail.ref ?? ''}`);
    case 'room_name_taken':
      return new V1Error(400, `name: a room named "${detail.name ?? ''}" already exists`);
    case 'room_archived':
      return new V1Error(400, `room_id: room "${detail.name ?? ''}" is archived`);
    case 'email_taken':
      return new V1Error(400, `email: a user with e-mail address "${detail.email ?? ''}" already exists`);
    case 'mention_name_taken':
      return new V1Error(400, `mention_name: the mention name "${detail.mentionName ?? ''}" is already taken`);
    case 'user_not_deleted':
      return new V1Error(400, `user_id: user ${detail.id ?? ''} is not deleted`);
    case 'user_identity_taken':
      return new V1Error(400, `user_id: another user now has the e-mail address or mention name of user ${detail.id ?? ''}`);
    case 'message_empty_after_sanitizing':
      return new V1Error(400, 'message: is empty once disallowed HTML is removed');
    case 'rule': {
      const problem = String(detail.problem ?? 'is invalid');
      return new V1Error(400, param ? `${param}: ${problem}` : `The request is invalid: ${problem}`);
    }
    case 'deadline_passed':
    case 'dependency_failed':
      return new V1Error(503, MESSAGES.unavailable);
    case 'unexpected':
      return new V1Error(500, MESSAGES.failed);
  }
  // A reason this version does not know yet: its code still says what kind of answer it is.
  switch (error.code) {
    case 'not_found': return new V1Error(404, param ? `${param}: not found` : 'Not found.');
    case 'invalid':
    case 'conflict': return new V1Error(400, param ? `${param}: is invalid` : 'The request is invalid.');
    case 'forbidden': return new V1Error(403, 'This auth_token may not do this.');
    case 'unavailable': return new V1Error(503, MESSAGES.unavailable);
    default: return new V1Error(500, MESSAGES.failed);
  }
}

/** Anything thrown while serving a v1 request, as the v1 error it is answered with. */
export function toV1Error(err: unknown): V1Error {
  if (err instanceof V1Error) return err;
  if (err instanceof ParamProblem) return new V1Error(400, `${err.param}: ${err.problem}`);
  if (err instanceof RpcCommandError) return v1ErrorOfCommand(err.error);
  if (err instanceof RoomsOutage) {
    if (err.kind === 'not_sent') return new V1Error(503, MESSAGES.unavailable);
    return err.changesState ? new V1Error(504, MESSAGES.outcomeUnknown) : new V1Error(503, MESSAGES.queryTimedOut);
  }
  if (err instanceof RpcFailure) return err.kind === 'not_sent' ? new V1Error(503, MESSAGES.unavailable) : new V1Error(504, MESSAGES.outcomeUnknown);
  if (err instanceof HttpException) return new V1Error(err.getStatus(), err.message);
  // Body-parser errors carry their status and a type.
  const e = err as { type?: string; status?: number; statusCode?: number; limit?: number };
  if (e?.type === 'entity.too.large') return new V1Error(413, `The request body is larger than the ${e.limit ?? ''} byte limit.`.replace('  ', ' '));
  if (e?.type === 'entity.parse.failed') return new V1Error(400, 'The request body could not be parsed.');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return new V1Error(415, 'The request body encoding is not supported.');
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return new V1Error(status, 'The request could not be read.');
  return new V1Error(500, MESSAGES.failed);
}

/**
 * Sends the v1 error body, in the format the client asked for, with the rate-limit headers
 * every answer carries (those of a request that counted nothing, when none were set).
 */
export function sendV1Error(req: V1HttpRequest, res: FastifyReply, error: V1Error, limiter: RequestRateLimiter): void {
  if (res.sent) return;
  const out = render(requestedFormat(req), error.body());
  res.status(error.status).headers(rateLimitHeaders(req.v1?.rateLimit ?? limiter.idle())).headers(error.headers)
    .type(out.contentType).send(out.body);
}

/** The v1 error body for whatever a v1 route throws (applied to the v1 controller alone). */
@Catch()
@Injectable()
export class V1Filter implements ExceptionFilter {
  constructor(
    private readonly limiter: RequestRateLimiter,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  catch(err: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<V1HttpRequest>();
    const error = toV1Error(err);
    if (err instanceof RoomsOutage) {
      this.logger.warn({ command: err.command, kind: err.kind, err: err.failure.message, status: error.status }, 'rooms service did not answer');
    } else if (error.status >= 500 && !(err instanceof V1Error)) {
      this.logger.error({ err }, 'request failed');
    }
    sendV1Error(req, host.switchToHttp().getResponse<FastifyReply>(), error, this.limiter);
  }
}
