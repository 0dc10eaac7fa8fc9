import { Delete, Get, HttpCode, Post, UseInterceptors } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { AuthenticatedToken } from '@app/contracts';
import { JsonBodyOnly, Notes, OtherAnswers, Public, ResponseSchema, Summary } from '../http/route-options';
import { V2Controller } from '../http/v2-controller';
import { CurrentSession, Origin, PresentedSession, RequestOrigin, RequestTrace } from '../http/v2-request';
import { V2Body } from '../http/validation';
import { GetSession } from './get-session.usecase';
import { SessionAnswerInterceptor } from './session-answer.interceptor';
import { SignInBody, signInBody, sessionResponse } from './session.schemas';
import { SignIn } from './sign-in.usecase';
import { SignOut } from './sign-out.usecase';

/** `/v2/session` (our extension): the web console's sign-in, who is signed in, sign-out. */
@V2Controller('session')
export class SessionController {
  constructor(private readonly signIn: SignIn, private readonly getSession: GetSession, private readonly signOut: SignOut) {}

  @Post()
  @Public()
  @JsonBodyOnly()
  @HttpCode(201)
  @Summary('Sign in (sets the session cookie)')
  @ResponseSchema(sessionResponse)
  @Notes('Our extension, for the web console. JSON body only (415 otherwise). Sets `chat_session=<secret>; HttpOnly; SameSite=Lax; Path=/; Max-Age=<SESSION_TTL in seconds>`, plus `; Secure` when reached over TLS (PUBLIC_BASE_URL https, TLS_CERT_FILE, or X-Forwarded-Proto https from a TRUST_PROXY proxy). Each guess is counted before its password is checked (a success gives it back): per account from the client address (SIGN_IN_MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS per SIGN_IN_WINDOW), per account from every address (SIGN_IN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES per SIGN_IN_ACCOUNT_WINDOW), per address across accounts (SIGN_IN_MAX_FAILURES_PER_ADDRESS per SIGN_IN_WINDOW). Like every route served without a token, limited per client address (PUBLIC_RATE_LIMIT_MAX per PUBLIC_RATE_LIMIT_WINDOW_SECONDS).')
  @OtherAnswers({ 401: 'Wrong e-mail address or password (the same answer for both).', 415: 'The body is not JSON.', 429: 'Too many failed sign-ins of this account from this address, of this account, or from this address (or too many requests from this address); Retry-After says when to try again.' })
  @UseInterceptors(SessionAnswerInterceptor)
  create(@V2Body(signInBody) body: SignInBody, @Origin() origin: RequestOrigin, @RequestTrace() trace?: Context) { return this.signIn.execute(body, origin, trace); }

  @Get()
  @Summary('Who is signed in, and the session\'s CSRF token')
  @ResponseSchema(sessionResponse)
  @Notes('Our extension. Answers for the session cookie only: 401 when no session (or a token) authenticated the request.')
  get(@CurrentSession() session: { token: AuthenticatedToken; secret: string } | undefined, @RequestTrace() trace?: Context) { return this.getSession.execute(session, trace); }

  @Delete()
  @Public()
  @HttpCode(204)
  @Summary('Sign out (ends the session, clears the cookie)')
  @Notes('Our extension. Ends the cookie\'s session on every gateway replica and clears the cookie (`chat_session=; ...; Max-Age=0`). Needs X-CSRF-Token when the cookie holds a live session; without one it only clears the cookie (204).')
  @OtherAnswers({ 403: 'A live session\'s cookie without its X-CSRF-Token.' })
  @UseInterceptors(SessionAnswerInterceptor)
  delete(@PresentedSession() presented: { secret?: string; csrf?: string }, @Origin() origin: RequestOrigin, @RequestTrace() trace?: Context) {
    return this.signOut.execute(presented, origin, trace);
  }
}
