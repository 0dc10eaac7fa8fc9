import { ArgumentsHost, Catch, ExceptionFilter, Inject, Injectable } from '@nestjs/common';
import { APP_LOGGER, AppLogger } from '@app/common';
import type { CommandError } from '@app/contracts';
import type { FastifyReply } from 'fastify';
import { rateLimitHeaders } from '../shared/rate-limit/rate-limit';
import { RequestRateLimiter } from '../shared/rate-limit/request-rate-limiter';
import { ApiWording, commandErrorOf, fieldNamer, logFailure, SHARED_FIELD_NAMES, toApiError } from '../shared/command-errors';
import { V1Error } from './errors';
import { render } from './render';
import { requestedFormat, V1HttpRequest } from './v1-request';

/** v1's names for the fields of commands (beyond those both APIs share; the others keep the command's). */
export const v1ParamOf = fieldNamer({
  ...SHARED_FIELD_NAMES,
  room: 'room_id',
  user: 'user_id',
  includeDeleted: 'include_deleted',
});

/** v1's own wording: the texts v1 clients have always been answered with. */
const V1_WORDING: ApiWording = {
  fieldName: v1ParamOf,
  reason(error) {
    const detail = error.detail ?? {};
    switch (error.reason) {
      case 'room_name_taken':
        return new V1Error(400, `name: a room named "${detail.name ?? ''}" already exists`);
      case 'room_archived':
        return new V1Error(400, `room_id: room "${detail.name ?? ''}" is archived`);
      case 'user_not_deleted':
        return new V1Error(400, `user_id: user ${detail.id ?? ''} is not deleted`);
      case 'user_identity_taken':
        return new V1Error(400, `user_id: another user now has the e-mail address or mention name of user ${detail.id ?? ''}`);
      default:
        return undefined;
    }
  },
  showsDetailMessage: false,
  forbidden: 'This auth_token may not do this.',
  bodyNotParsed: 'The request body could not be parsed.',
};

/** A command's API-neutral error, worded as the v1 API always worded it. */
export const v1ErrorOfCommand = (error: CommandError): V1Error => commandErrorOf(error, V1_WORDING);

/** Anything thrown while serving a v1 request, as the v1 error it is answered with. */
export const toV1Error = (err: unknown): V1Error => toApiError(err, V1_WORDING);

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
    this.answer(err, toV1Error(err), host);
  }

  /** Sends `error`, the answer to `err` (the fallback filter words some errors itself). */
  answer(err: unknown, error: V1Error, host: ArgumentsHost): void {
    logFailure(this.logger, err, error);
    sendV1Error(host.switchToHttp().getRequest<V1HttpRequest>(), host.switchToHttp().getResponse<FastifyReply>(), error, this.limiter);
  }
}
