import { bareUrl } from '@app/common';
import type { CommandError } from '@app/contracts';
import { ApiError } from '../shared/api-error';
import { ApiWording, commandErrorOf, fieldNamer, SHARED_FIELD_NAMES, toApiError, unknownUserText } from '../shared/command-errors';

/** v2's names for the fields of commands (beyond those both APIs share; the others keep the command's). */
export const v2FieldOf = fieldNamer({
  ...SHARED_FIELD_NAMES,
  isArchived: 'is_archived',
  attachTo: 'attach_to',
  photoUrl: 'photo_url',
  notBefore: 'not-before',
});

/** Under /v2, a path no operation serves points at the v2 operations. */
export const V2_NOT_FOUND_MESSAGE = 'Not found. The version 2 API\'s operations are listed at /docs/api/v2.';

/** v2's own wording, as HipChat's v2 API worded it (clients match some texts). */
const V2_WORDING: ApiWording = {
  fieldName: v2FieldOf,
  reason(error, field) {
    const d = error.detail ?? {};
    switch (error.reason) {
      // v2 has always refused an unknown owner as a bad parameter; other unknown users are 404.
      case 'user_not_found':
        return error.field === 'owner' ? new ApiError(400, unknownUserText(error, field)) : undefined;
      case 'message_not_found':
        return new ApiError(404, `Message ${d.ref ?? ''} not found`);
      case 'webhook_not_found':
        return new ApiError(404, `Webhook ${d.ref ?? ''} not found`);
      case 'bridge_not_found':
        return new ApiError(404, `Bridge ${d.ref ?? ''} not found`);
      case 'inbound_not_found':
        return new ApiError(404, 'Not found');
      case 'inbound_unverified':
        return new ApiError(401, `This bridge's inbound URL ${d.problem ?? 'refused the request'}; nothing was posted.`);
      case 'delivery_not_found':
        return new ApiError(404, `Delivery ${d.ref ?? ''} not found`);
      case 'room_not_private':
        return new ApiError(400, `Room ${d.ref ?? ''} is public: members are managed for private rooms only.`);
      case 'entering_archived_room':
        return new ApiError(400, `Room ${d.name ?? ''} is archived: nobody may enter it until it is unarchived.`);
      case 'outside_token_room':
        return new ApiError(403, 'This room token may only be used for its own room.');
      case 'not_allowed':
        return new ApiError(403, String(d.message ?? 'This token may not do this.'));
      case 'token_not_found':
        return new ApiError(404, `Token ${d.ref ?? ''} not found`);
      case 'addon_not_found':
        return new ApiError(404, `Add-on installation ${d.ref ?? ''} not found`);
      case 'addon_descriptor_invalid':
        return new ApiError(400, `Add-on descriptor ${bareUrl(String(d.url ?? ''))}: ${d.problem ?? 'is invalid'}`);
      case 'addon_callback_failed':
        return new ApiError(400, `The add-on's installation callback ${bareUrl(String(d.url ?? ''))} failed (${d.problem ?? 'no answer'}); nothing was installed.`);
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
      default:
        return undefined;
    }
  },
  showsDetailMessage: true,
  forbidden: 'This token may not do this.',
  bodyNotParsed: 'The request body is not valid JSON.',
  notFound: V2_NOT_FOUND_MESSAGE,
};

/** A command's API-neutral error, worded as HipChat's v2 API worded it. */
export const v2ErrorOfCommand = (error: CommandError): ApiError => commandErrorOf(error, V2_WORDING);

/** Anything thrown while serving a v2 request, as the error it is answered with. */
export const toV2Error = (err: unknown): ApiError => toApiError(err, V2_WORDING);
