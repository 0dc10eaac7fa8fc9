import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';

/** Receivers reject expired tokens, and a token is only needed while its one request is made. */
export const WEBHOOK_JWT_LIFETIME_SECONDS = 60;

/** The claims a delivery's JWT carries, as add-on frameworks read them. */
export interface WebhookJwtClaims {
  /** The OAuth client id of the add-on, or the webhook id (as text) of a REST registration. */
  iss: string;
  /** The acting user's id as digits; absent when there is none. */
  sub?: string;
  /** The older name of `sub`: some frameworks still read it. */
  prn?: string;
  iat: number;
  exp: number;
  jti: string;
  context: { room_id: number | null; user_tz: string };
}

/**
 * The `Authorization: JWT <token>` of a delivery with `authentication: jwt`: HS256 with the
 * add-on's oauthSecret (or the registration's own secret), signed by jsonwebtoken.
 */
export function signWebhookJwt(o: {
  secret: string;
  issuer: string;
  userId: number | null;
  roomId: number | null;
  userTz?: string;
  lifetimeSeconds?: number;
  now?: Date;
}): string {
  const iat = Math.floor((o.now ?? new Date()).getTime() / 1000);
  const user = o.userId === null ? {} : { sub: String(o.userId), prn: String(o.userId) };
  const claims: WebhookJwtClaims = {
    iss: o.issuer,
    ...user,
    iat,
    exp: iat + (o.lifetimeSeconds ?? WEBHOOK_JWT_LIFETIME_SECONDS),
    jti: randomUUID(),
    context: { room_id: o.roomId, user_tz: o.userTz ?? 'UTC' },
  };
  // Claims set in the payload, not as sign() options: iat and exp then follow `now`.
  return jwt.sign(claims, o.secret, { algorithm: 'HS256' });
}
