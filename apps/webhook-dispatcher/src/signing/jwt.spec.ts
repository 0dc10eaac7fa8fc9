import jwt, { JwtPayload, TokenExpiredError } from 'jsonwebtoken';
import { signWebhookJwt, WEBHOOK_JWT_LIFETIME_SECONDS } from './jwt';

const secret = 'oauth-secret-of-the-add-on';

describe('signWebhookJwt', () => {
  it('is an HS256 token that jsonwebtoken verifies with the secret, carrying every claim as frameworks expect', () => {
    const token = signWebhookJwt({ secret, issuer: 'a1b2c3-client', userId: 42, roomId: 7, userTz: 'Europe/Paris' });

    const claims = jwt.verify(token, secret, { algorithms: ['HS256'] }) as JwtPayload;
    expect(jwt.decode(token, { complete: true })?.header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(claims).toEqual({
      iss: 'a1b2c3-client',
      sub: '42',
      prn: '42',
      iat: expect.any(Number),
      exp: expect.any(Number),
      jti: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      context: { room_id: 7, user_tz: 'Europe/Paris' },
    });
    expect(claims.sub).toMatch(/^\d+$/);
    expect(claims.exp! - claims.iat!).toBe(WEBHOOK_JWT_LIFETIME_SECONDS);
    expect(Math.abs(claims.iat! - Date.now() / 1000)).toBeLessThan(5);
  });

  it('fails verification with another secret', () => {
    const token = signWebhookJwt({ secret, issuer: 'c', userId: 1, roomId: 1 });
    expect(() => jwt.verify(token, 'another-secret')).toThrow('invalid signature');
  });

  it('is expired once its lifetime has passed (default 60 s)', () => {
    const now = new Date('2025-01-02T03:04:05Z');
    const token = signWebhookJwt({ secret, issuer: 'c', userId: 1, roomId: 1, now });
    const at = (seconds: number) => Math.floor(now.getTime() / 1000) + seconds;

    expect(jwt.verify(token, secret, { clockTimestamp: at(59) })).toMatchObject({ iat: at(0), exp: at(60) });
    expect(() => jwt.verify(token, secret, { clockTimestamp: at(60) })).toThrow(TokenExpiredError);
  });

  it('takes another lifetime', () => {
    const now = new Date('2025-01-02T03:04:05Z');
    const claims = jwt.decode(signWebhookJwt({ secret, issuer: 'c', userId: 1, roomId: 1, now, lifetimeSeconds: 300 })) as JwtPayload;
    expect(claims.exp! - claims.iat!).toBe(300);
  });

  it('names a REST registration by its webhook id, defaults user_tz to UTC and keeps room_id present when null', () => {
    const claims = jwt.verify(signWebhookJwt({ secret, issuer: '15', userId: null, roomId: null }), secret) as JwtPayload;
    expect(claims.iss).toBe('15');
    expect(claims).not.toHaveProperty('sub');
    expect(claims).not.toHaveProperty('prn');
    expect(claims.context).toEqual({ room_id: null, user_tz: 'UTC' });
    expect(Object.keys(claims.context)).toEqual(['room_id', 'user_tz']);
  });

  it('gives every token its own jti', () => {
    const jti = (t: string) => (jwt.decode(t) as JwtPayload).jti;
    const o = { secret, issuer: 'c', userId: 1, roomId: 1, now: new Date('2025-01-01T00:00:00Z') };
    expect(jti(signWebhookJwt(o))).not.toBe(jti(signWebhookJwt(o)));
  });
});
