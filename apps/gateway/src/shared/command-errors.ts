import { HttpException } from '@nestjs/common';
import { AppLogger, RpcCommandError, RpcFailure } from '@app/common';
import type { CommandError } from '@app/contracts';
import { ApiError } from './api-error';
import { ParamProblem } from './request-params';
import { RoomsOutage } from './rooms-client';

/**
 * How anything thrown while serving a request becomes the error it is answered with: the
 * status of each command error and outage, and the texts both APIs give them, written once.
 * Each API brings only its own wording (`ApiWording`) and sends the body its own way
 * (v1.filter.ts, v2.filter.ts). Plain functions: no I/O (the logger is handed in).
 */

/** What the client is told about a service (the rooms service, the webhook dispatcher) not answering (the same in both APIs). */
export const outageMessages = (service: string) => ({
  /** The command certainly did not run: the client may retry. */
  unavailable: `The ${service} is unavailable; nothing was done. Try again shortly.`,
  /** A query went unanswered: nothing to undo either way. */
  queryTimedOut: `The ${service} did not answer in time; try again shortly.`,
  /** A change went unanswered: it may have been applied, and a blind retry could apply it twice. */
  outcomeUnknown: `The ${service} did not answer in time; the request may or may not have been applied. Check before trying again.`,
  failed: 'The request could not be completed.',
});

/** The rooms service's: what most commands go to. */
export const OUTAGE_MESSAGES = outageMessages('rooms service');

/** The names both APIs give these command fields; each API adds its own (others keep the command's name). */
export const SHARED_FIELD_NAMES: Readonly<Record<string, string>> = {
  owner: 'owner_user_id',
  messageFormat: 'message_format',
  guestAccess: 'guest_access',
  mentionName: 'mention_name',
  isGroupAdmin: 'is_group_admin',
};

/** A command field's name in an API (never an inherited property: `constructor` stays itself). */
export const fieldNamer = (names: Readonly<Record<string, string>>) => (field: string): string =>
  (Object.prototype.hasOwnProperty.call(names, field) ? names[field] : field);

/** What an API words its own way; everything else is answered as `toApiError` says. */
export interface ApiWording {
  /** The API's name of a command's field (`room` is `room_id` in v1). */
  fieldName(field: string): string;
  /** The API's text for a command error's reason, or undefined: the shared text, else by its code. */
  reason(error: CommandError, field: string | undefined): ApiError | undefined;
  /** v2 shows a refusal's `detail.message` for a reason it does not know; v1 never did. */
  showsDetailMessage: boolean;
  /** The 403 text for a reason the API does not know. */
  forbidden: string;
  /** A request body that is not well-formed. */
  bodyNotParsed: string;
  /** The text of a 404 raised by the HTTP layer (default: the exception's own). */
  notFound?: string;
}

/**
 * An unknown user's text. Clients match `Room <id or name> not found` (compatibility.md), and
 * the user's text has the same form; a room's owner is named by the parameter that gave it.
 */
export function unknownUserText(error: CommandError, field: string | undefined): string {
  const ref = error.detail?.ref ?? '';
  return error.field === 'owner' && field ? `${field}: user ${ref} not found` : `User ${ref} not found`;
}

/** Reasons both APIs word alike. */
function sharedReason(error: CommandError, field: string | undefined): ApiError | undefined {
  const d = error.detail ?? {};
  switch (error.reason) {
    case 'room_not_found':
      return new ApiError(404, `Room ${d.ref ?? ''} not found`);
    case 'user_not_found':
      return new ApiError(404, unknownUserText(error, field));
    case 'email_taken':
      return new ApiError(400, `email: a user with e-mail address "${d.email ?? ''}" already exists`);
    case 'mention_name_taken':
      return new ApiError(400, `mention_name: the mention name "${d.mentionName ?? ''}" is already taken`);
    case 'message_empty_after_sanitizing':
      return new ApiError(400, 'message: is empty once disallowed HTML is removed');
    case 'rule': {
      const problem = String(d.problem ?? 'is invalid');
      return new ApiError(400, field ? `${field}: ${problem}` : `The request is invalid: ${problem}`);
    }
    case 'deadline_passed':
    case 'dependency_failed':
      return new ApiError(503, OUTAGE_MESSAGES.unavailable);
    case 'unexpected':
      return new ApiError(500, OUTAGE_MESSAGES.failed);
    default:
      return undefined;
  }
}

/** A reason neither API knows yet: its code still says what kind of answer it is. */
function byCode(error: CommandError, field: string | undefined, wording: ApiWording): ApiError {
  const d = error.detail ?? {};
  const detail = wording.showsDetailMessage && typeof d.message === 'string' ? d.message : undefined;
  switch (error.code) {
    case 'not_found': return new ApiError(404, detail ?? (field ? `${field}: not found` : 'Not found.'));
    case 'invalid':
    case 'conflict': return new ApiError(400, detail ? (field ? `${field}: ${detail}` : detail) : field ? `${field}: is invalid` : 'The request is invalid.');
    case 'forbidden': return new ApiError(403, detail ?? wording.forbidden);
    case 'unavailable': return new ApiError(503, OUTAGE_MESSAGES.unavailable);
    default: return new ApiError(500, OUTAGE_MESSAGES.failed);
  }
}

/**
 * A refused command whose fields the request named otherwise than its API usually does
 * (v2's room update takes the owner as `owner.id` as well as `owner_user_id`).
 */
export class RenamedCommandError extends RpcCommandError {
  constructor(error: CommandError, readonly names: Readonly<Record<string, string>>) {
    super(error);
  }
}

/**
 * For `.catch()` on a command: a refusal names the fields as the request did (`names`, by
 * command field); anything else passes as it is.
 */
export const namingFields = (names: Readonly<Record<string, string>>) => (err: unknown): never => {
  throw err instanceof RpcCommandError ? new RenamedCommandError(err.error, names) : err;
};

/** A command's API-neutral error, worded by the API. */
export function commandErrorOf(error: CommandError, wording: ApiWording): ApiError {
  const field = error.field ? wording.fieldName(error.field) : undefined;
  return wording.reason(error, field) ?? sharedReason(error, field) ?? byCode(error, field, wording);
}

/**
 * The rooms service (or the webhook dispatcher) did not answer: 503 when nothing was applied
 * (not sent, or a query), 504 when a change may or may not have been.
 */
export function outageOf(err: RoomsOutage | RpcFailure): ApiError {
  const messages = err instanceof RoomsOutage ? outageMessages(err.service) : OUTAGE_MESSAGES;
  if (err.kind === 'not_sent') return new ApiError(503, messages.unavailable);
  const changesState = err instanceof RoomsOutage ? err.changesState : true;
  return changesState ? new ApiError(504, messages.outcomeUnknown) : new ApiError(503, messages.queryTimedOut);
}

/** Anything thrown while serving a request, as the error it is answered with. */
export function toApiError(err: unknown, wording: ApiWording): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof ParamProblem) return new ApiError(400, `${err.param}: ${err.problem}`);
  if (err instanceof RenamedCommandError) {
    const named = (f: string) => (Object.prototype.hasOwnProperty.call(err.names, f) ? err.names[f] : wording.fieldName(f));
    return commandErrorOf(err.error, { ...wording, fieldName: named });
  }
  if (err instanceof RpcCommandError) return commandErrorOf(err.error, wording);
  if (err instanceof RoomsOutage || err instanceof RpcFailure) return outageOf(err);
  if (err instanceof HttpException) {
    const status = err.getStatus();
    return new ApiError(status, status === 404 && wording.notFound !== undefined ? wording.notFound : err.message);
  }
  // Body-parser errors carry their status and a type.
  const e = err as { type?: string; status?: number; statusCode?: number; limit?: number };
  if (e?.type === 'entity.too.large') return new ApiError(413, `The request body is larger than the ${e.limit ?? ''} byte limit.`.replace('  ', ' '));
  if (e?.type === 'entity.parse.failed') return new ApiError(400, wording.bodyNotParsed);
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return new ApiError(415, 'The request body encoding is not supported.');
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return new ApiError(status, 'The request could not be read.');
  return new ApiError(500, OUTAGE_MESSAGES.failed);
}

/**
 * Logs what the client was not told: an outage as a warning (the command and how it failed),
 * any other 5xx that no one raised on purpose as an error.
 */
export function logFailure(logger: AppLogger, err: unknown, answer: ApiError): void {
  if (err instanceof RoomsOutage) {
    logger.warn({ command: err.command, kind: err.kind, err: err.failure.message, status: answer.status }, `${err.service} did not answer`);
  } else if (answer.status >= 500 && !(err instanceof ApiError)) {
    logger.error({ err }, 'request failed');
  }
}
