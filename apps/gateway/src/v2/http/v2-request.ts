import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Context } from '@opentelemetry/api';
import { Actor, AuthenticatedToken, parseRoomRef, parseUserRef, RoomRef, UserRef } from '@app/contracts';
import type { FastifyRequest } from 'fastify';
import { carryTrace, withSpan } from '@app/common';
import { requestSpan } from '../../shared/http-tracing';
import { ApiError } from '../../shared/api-error';
import type { RateLimitState } from '../../shared/rate-limit/rate-limit';
import type { FloodCount } from '../flood/flood-control';
import { CSRF_HEADER, sessionSecretOf } from '../session/session-cookie';

/** What the guards learn about a v2 request, in the order they learn it. */
export interface V2RequestState {
  token?: AuthenticatedToken;
  /** The session cookie's secret, when the session cookie authenticated the request (not a token). */
  sessionSecret?: string;
  /** The token's count, once taken: every answer from then on carries its headers. */
  rateLimit?: RateLimitState;
  /** The room's count (flood control), on sends: given back by V2Filter if the send is refused. */
  flood?: FloodCount;
}

export type V2HttpRequest = FastifyRequest & { v2?: V2RequestState };

/** The authenticated token of a v2 request (handlers read this, never the request). */
export const CurrentToken = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthenticatedToken =>
  ctx.switchToHttp().getRequest<V2HttpRequest>().v2!.token!);

/** Who acts, as commands record it: the token, and its user or room when it has one. */
export function actorOf(token: AuthenticatedToken): Actor {
  return {
    tokenId: token.id,
    label: token.label || 'API',
    ...(token.userId !== null ? { userId: token.userId } : {}),
    ...(token.roomId !== null ? { roomId: token.roomId } : {}),
  };
}

/** The user the request acts as (a personal token or a session); 403 for tokens of no user. */
export const CurrentUserId = createParamDecorator((_: unknown, ctx: ExecutionContext): number => {
  const userId = ctx.switchToHttp().getRequest<V2HttpRequest>().v2!.token!.userId;
  if (userId === null) throw new ApiError(403, 'Only a user may do this: sign in, or use a personal token.');
  return userId;
});

/** The session the request was authenticated by: its token and the secret (undefined when a token authenticated it). */
export const CurrentSession = createParamDecorator((_: unknown, ctx: ExecutionContext): { token: AuthenticatedToken; secret: string } | undefined => {
  const state = ctx.switchToHttp().getRequest<V2HttpRequest>().v2!;
  return state.sessionSecret ? { token: state.token!, secret: state.sessionSecret } : undefined;
});

/** Where a request comes from, as the console's sign-in needs it (the client's address and whether it came over TLS). */
export interface RequestOrigin { address: string; protocol: string }

/** req.ip and req.protocol: the socket's, or X-Forwarded-* from TRUST_PROXY proxies (bootstrap.ts). */
export const Origin = createParamDecorator((_: unknown, ctx: ExecutionContext): RequestOrigin => {
  const req = ctx.switchToHttp().getRequest<V2HttpRequest>();
  return { address: req.ip, protocol: req.protocol };
});

/** The session cookie's secret and the X-CSRF-Token header, read but not checked (sign-out is served without authentication). */
export const PresentedSession = createParamDecorator((_: unknown, ctx: ExecutionContext): { secret?: string; csrf?: string } => {
  const req = ctx.switchToHttp().getRequest<V2HttpRequest>();
  const csrf = req.headers[CSRF_HEADER];
  return { secret: sessionSecretOf(req.headers.cookie), csrf: typeof csrf === 'string' ? csrf : undefined };
});

/** The actor carries the request's trace to the commands it is given to (see carryTrace). */
export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor => {
  const req = ctx.switchToHttp().getRequest<V2HttpRequest>();
  // The client's address (req.ip: TRUST_PROXY aware, as the rate limits see it), for the audit log.
  const actor = { ...actorOf(req.v2!.token!), address: req.ip };
  const span = requestSpan(req);
  return span ? carryTrace(actor, withSpan(span)) : actor;
});

/**
 * The request's trace, for the commands of handlers that have no actor to carry it (see
 * CurrentActor): undefined when the request has no span.
 */
export const RequestTrace = createParamDecorator((_: unknown, ctx: ExecutionContext): Context | undefined => {
  const span = requestSpan(ctx.switchToHttp().getRequest<V2HttpRequest>());
  return span && withSpan(span);
});

/** A parameter of the request's path, as text ('' when the route has none by that name). */
export const pathParam = (ctx: ExecutionContext, name: string): string =>
  String((ctx.switchToHttp().getRequest<V2HttpRequest>().params as Record<string, string | undefined>)[name] ?? '');

/** `{room}` of the path, as the room it names: an id (all digits) or a name. */
export const RoomRefParam = createParamDecorator((_: unknown, ctx: ExecutionContext): RoomRef => parseRoomRef(pathParam(ctx, 'room')));

/** `{user}` of the path: an id, an e-mail address or an @mention name. */
export const userRefOf = (raw: string): UserRef => parseUserRef(raw, { mentions: true });

/** `{user}` of the path, as the user it names (see `userRefOf`). */
export const UserRefParam = createParamDecorator((_: unknown, ctx: ExecutionContext): UserRef => userRefOf(pathParam(ctx, 'user')));
