import { HttpException } from '@nestjs/common';
import { RpcCommandError, RpcFailure } from '@app/common';
import type { CommandError } from '@app/contracts';
import { ApiError } from '../shared/api-error';
import { ParamProblem } from '../shared/request-params';
import { RoomsOutage } from '../shared/rooms-client';

/** v2's names for the fields of commands (the others are the same). */
const V2_FIELDS: Readonly<Record<string, string>> = {
  owner: 'owner_user_id',
  messageFormat: 'message_format',
  guestAccess: 'guest_access',
  mentionName: 'mention_name',
  isGroupAdmin: 'is_group_admin',
  isArchived: 'is_archived',
  attachTo: 'attach_to',
  photoUrl: 'photo_url',
  notBefore: 'not-before',
};

export const v2FieldOf = (field: string): string => (Object.prototype.hasOwnProperty.call(V2_FIELDS, field) ? V2_FIELDS[field] : field);

export const V2_MESSAGES = {
  unavailable: 'The rooms service is unavailable; nothing was done. Try again shortly.',
  queryTimedOut: 'The rooms service did not answer in time; try again shortly.',
  outcomeUnknown: 'The rooms service did not answer in time; the request may or may not have been applied. Check before trying again.',
  failed: 'The request could not be completed.',
} as const;

/** A command's API-neutral error, worded as HipChat's v2 API worded it (clients match some texts). */
export function v2ErrorOfCommand(error: CommandError): ApiError {
  const d = error.detail ?? {};
  const field = error.field ? v2FieldOf(error.field) : undefined;
  switch (error.reason) {
    case 'room_not_found':
      return new ApiError(404, `Room ${d.ref ?? ''} not found`);
    case 'user_not_found':
      return error.field === 'owner'
        ? new ApiError(400, `owner_user_id: user ${d.ref ?? ''} not found`)
        : new ApiError(404, `User ${d.ref ?? ''} not found`);
    case 'message_not_found':
      return new ApiError(404, `Message ${d.ref ?? ''} not found`);
    case 'webhook_not_found':
      return new ApiError(404, `Webhook ${d.ref ?? ''} not found`);
    case 'room_not_private':
      return new ApiError(400, `Room ${d.ref ?? ''} is public: members are managed for private rooms only.`);
    case 'entering_archived_room':
      return new ApiError(400, `Room ${d.name ?? ''} is archived: nobody may enter it until it is unarchived.`);
    case 'outside_token_room':
      return new ApiError(403, 'This room token may only be used for its own room.');
    case 'not_allowed':
      return new ApiError(403, String(d.message ?? 'This token may not do this.'));
    case 'addon_not_found':
      return new ApiError(404, `Add-on installation ${d.ref ?? ''} not found`);
    case 'addon_descriptor_invalid':
      return new ApiError(400, `Add-on descriptor ${d.url ?? ''}: ${d.problem ?? 'is invalid'}`);
    case 'addon_callback_failed':
      return new ApiError(400, `The add-on's installation callback ${d.url ?? ''} failed (${d.problem ?? 'no answer'}); nothing was installed.`);
    case 'addon_not_installable':
      return new ApiError(400, `The add-on cannot be installed: ${d.problem ?? 'refused'}.`);
    case 'oauth_invalid_client':
      return new ApiError(401, 'invalid_client: unknown OAuth client or wrong secret (HTTP Basic oauthId:oauthSecret).', { 'WWW-Authenticate': 'Basic realm="oauth"' });
    case 'oauth_invalid_scope':
      return new ApiError(400, `invalid_scope: ${d.problem ?? `the scope ${d.scope ?? ''} may not be granted`}`);
    case 'room_name_taken':
      return new ApiError(400, 'Another room exists with that name.');
    case 'room_archived':
      return new ApiError(400, `Room ${d.name ?? ''} is archived: it accepts no messages or notifications until it is unarchived.`);
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
      return new ApiError(503, V2_MESSAGES.unavailable);
    case 'unexpected':
      return new ApiError(500, V2_MESSAGES.failed);
  }
  const detail = typeof d.message === 'string' ? d.message : undefined;
  switch (error.code) {
    case 'not_found': return new ApiError(404, detail ?? (field ? `${field}: not found` : 'Not found.'));
    case 'invalid':
    case 'conflict': return new ApiError(400, detail ? (field ? `${field}: ${detail}` : detail) : field ? `${field}: is invalid` : 'The request is invalid.');
    case 'forbidden': return new ApiError(403, detail ?? 'This token may not do this.');
    case 'unavailable': return new ApiError(503, V2_MESSAGES.unavailable);
    default: return new ApiError(500, V2_MESSAGES.failed);
  }
}

/** Anything thrown while serving a v2 request, as the error it is answered with. */
export function toV2Error(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof ParamProblem) return new ApiError(400, `${err.param}: ${err.problem}`);
  if (err instanceof RpcCommandError) return v2ErrorOfCommand(err.error);
  if (err instanceof RoomsOutage) {
    if (err.kind === 'not_sent') return new ApiError(503, V2_MESSAGES.unavailable);
    return err.changesState ? new ApiError(504, V2_MESSAGES.outcomeUnknown) : new ApiError(503, V2_MESSAGES.queryTimedOut);
  }
  if (err instanceof RpcFailure) return err.kind === 'not_sent' ? new ApiError(503, V2_MESSAGES.unavailable) : new ApiError(504, V2_MESSAGES.outcomeUnknown);
  if (err instanceof HttpException) {
    const status = err.getStatus();
    return new ApiError(status, status === 404 ? 'Not found. See /docs/api/v2 for the operations of the v2 API.' : err.message);
  }
  const e = err as { type?: string; status?: number; statusCode?: number; limit?: number };
  if (e?.type === 'entity.too.large') return new ApiError(413, `The request body is larger than the ${e.limit ?? ''} byte limit.`.replace('  ', ' '));
  if (e?.type === 'entity.parse.failed') return new ApiError(400, 'The request body is not valid JSON.');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return new ApiError(415, 'The request body encoding is not supported.');
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return new ApiError(status, 'The request could not be read.');
  return new ApiError(500, V2_MESSAGES.failed);
}
