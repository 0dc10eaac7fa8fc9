/**
 * The error a command answers with: API-neutral. `code` decides the HTTP status, `reason`
 * what happened, `field` which part of the request it is about (in the command's own
 * terms: `room`, `owner`, `email`...). Each API words it in its own filter, with its own
 * parameter names; `detail` carries the values the wording needs.
 */
export type CommandErrorCode = 'not_found' | 'invalid' | 'conflict' | 'forbidden' | 'unavailable' | 'internal';

export const COMMAND_ERROR_CODES: readonly CommandErrorCode[] = ['not_found', 'invalid', 'conflict', 'forbidden', 'unavailable', 'internal'];

export type CommandErrorReason =
  | 'room_not_found'
  | 'user_not_found'
  | 'room_name_taken'
  | 'room_archived'
  | 'email_taken'
  | 'mention_name_taken'
  | 'user_not_deleted'
  | 'user_identity_taken'
  | 'message_empty_after_sanitizing'
  | 'message_not_found'
  /** No webhook of the room with this id, or this key; `detail.ref` names it. */
  | 'webhook_not_found'
  /** No bridge of the room with this id (`detail.ref`). */
  | 'bridge_not_found'
  /** No bridge takes inbound posts at this key (unknown, or its bridge or inbound disabled: one answer, so keys cannot be probed). */
  | 'inbound_not_found'
  /** An inbound post without the bridge's token or HMAC, or with a wrong one (`detail.problem`): nothing was stored. */
  | 'inbound_unverified'
  /** Members are managed for private rooms only. */
  | 'room_not_private'
  /** Nobody enters an archived room (exiting it is allowed). */
  | 'entering_archived_room'
  /** A room token acting on another room than its own. */
  | 'outside_token_room'
  /** The actor may not do this; `detail.message` says why. */
  | 'not_allowed'
  /** The request broke a field rule; `detail.problem` says which rule. */
  | 'rule'
  /** No delivery with this id (of this webhook, when one is named): `detail.ref`. */
  | 'delivery_not_found'
  /** No token with this id that the caller may see (`detail.ref`). */
  | 'token_not_found'
  /** No add-on installation with this id (`detail.ref`). */
  | 'addon_not_found'
  /** The add-on's descriptor could not be fetched or broke rules: `detail.url`, `detail.problem` (each defect). */
  | 'addon_descriptor_invalid'
  /** The add-on's installation callback failed (`detail.url`, `detail.problem`): nothing was installed. */
  | 'addon_callback_failed'
  /** The add-on may not be installed like this (`detail.problem`): already installed, room not allowed, ... */
  | 'addon_not_installable'
  /** OAuth: unknown client or wrong secret. */
  | 'oauth_invalid_client'
  /** OAuth: a scope the client may not have (`detail.scope`, `detail.problem`). */
  | 'oauth_invalid_scope'
  /** The command arrived after its deadline and was not applied. */
  | 'deadline_passed'
  /** A dependency of the rooms service failed; nothing was applied. */
  | 'dependency_failed'
  /** A defect: logged by the rooms service, nothing was applied. */
  | 'unexpected';

export interface CommandError {
  code: CommandErrorCode;
  reason: CommandErrorReason;
  field?: string;
  detail?: Record<string, string | number>;
}

export function isCommandError(value: unknown): value is CommandError {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'string' && typeof v.reason === 'string' &&
    (COMMAND_ERROR_CODES as readonly string[]).includes(v.code);
}

/** Thrown by use cases; the transport answers the caller with `error`. */
export class CommandFailure extends Error {
  constructor(readonly error: CommandError) {
    super(`${error.code}: ${error.reason}${error.field ? ` (${error.field})` : ''}`);
    this.name = 'CommandFailure';
  }
}

export const commandFailure = (code: CommandErrorCode, reason: CommandErrorReason, field?: string, detail?: CommandError['detail']) =>
  new CommandFailure({ code, reason, ...(field ? { field } : {}), ...(detail ? { detail } : {}) });
