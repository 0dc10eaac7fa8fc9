import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { Actor, AuthenticatedToken, parseRoomRef, parseUserRef, RoomRef, UserRef } from '@app/contracts';
import type { FastifyRequest } from 'fastify';
import type { RateLimitState } from '../../shared/rate-limit/rate-limit';

/** What the guards learn about a v2 request, in the order they learn it. */
export interface V2RequestState {
  token?: AuthenticatedToken;
  /** The token's count, once taken: every answer from then on carries its headers. */
  rateLimit?: RateLimitState;
  /** The room's message count (flood control), on sends. */
  flood?: RateLimitState;
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

export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext): Actor =>
  actorOf(ctx.switchToHttp().getRequest<V2HttpRequest>().v2!.token!));

/** A parameter of the request's path, as text ('' when the route has none by that name). */
export const pathParam = (ctx: ExecutionContext, name: string): string =>
  String((ctx.switchToHttp().getRequest<V2HttpRequest>().params as Record<string, string | undefined>)[name] ?? '');

/** `{room}` of the path, as the room it names: an id (all digits) or a name. */
export const RoomRefParam = createParamDecorator((_: unknown, ctx: ExecutionContext): RoomRef => parseRoomRef(pathParam(ctx, 'room')));

/** `{user}` of the path: an id, an e-mail address or an @mention name. */
export const userRefOf = (raw: string): UserRef => parseUserRef(raw, { mentions: true });

/** `{user}` of the path, as the user it names (see `userRefOf`). */
export const UserRefParam = createParamDecorator((_: unknown, ctx: ExecutionContext): UserRef => userRefOf(pathParam(ctx, 'user')));
