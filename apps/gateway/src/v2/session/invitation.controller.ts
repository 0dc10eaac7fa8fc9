import { HttpCode, Param, Post, UseInterceptors } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { JsonBodyOnly, Notes, OtherAnswers, Public, ResponseSchema, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { Origin, RequestOrigin, RequestTrace } from '../http/v2-request';
import { V2Body } from '../http/validation';
import { AcceptInvitationBody, acceptInvitationBody } from '../users/users.schemas';
import { AcceptInvitation } from './accept-invitation.usecase';
import { SessionAnswerInterceptor } from './session-answer.interceptor';
import { sessionResponse } from './session.schemas';

/** `/v2/invitation/{token}` (our extension): an invited person chooses their password and is signed in. */
@V2Controller('invitation')
export class InvitationController {
  constructor(private readonly accept: AcceptInvitation) {}

  @Post(':token')
  @Public()
  @JsonBodyOnly()
  @HttpCode(201)
  @Summary('Accept an invitation: choose a password and sign in (sets the session cookie)')
  @ResponseSchema(sessionResponse)
  @Notes('Our extension, for the web console\'s invitation page (`{token}`: the secret of the link POST /v2/user/{user}/invitation answered). No token needed. JSON body only: `password`, by the rule of POST /v2/user\'s. Sets the password, uses the invitation up, ends the user\'s other sessions, and signs them in exactly as POST /v2/session does (the same cookie and body). Counted as sign-ins are: per link from the client address, per link, and per address (the address\'s budget shared with sign-ins); and limited per client address as every route served without a token. The audit log records `user.invitation_accepted`. The link is never logged.')
  @OtherAnswers({ 400: 'The password breaks the rule (too short or too long).', 404: 'The link is unknown, used or expired (the same answer for all three).', 415: 'The body is not JSON.', 429: 'Too many tries with this link, or from this address; Retry-After says when to try again.' })
  @UseInterceptors(SessionAnswerInterceptor)
  create(@Param('token') token: string, @V2Body(acceptInvitationBody) body: AcceptInvitationBody, @Origin() origin: RequestOrigin, @RequestTrace() trace?: Context) {
    return this.accept.execute(token, body, origin, trace);
  }
}
