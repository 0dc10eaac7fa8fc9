import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { InboundFields } from './inbound-post';

/** A bridge's inbound verification, opened: the platform's token, or Teams' security token (base64). */
export interface InboundVerification {
  token: string | null;
  hmacSecret: string | null;
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether `given` is the token, compared in constant time: both are hashed first so that
 * neither their contents nor their lengths show in how long the comparison takes.
 */
export function tokenMatches(expected: string, given: unknown): boolean {
  return typeof given === 'string' && timingSafeEqual(digest(expected), digest(given));
}

const HMAC_HEADER = /^HMAC\s+([A-Za-z0-9+/]+={0,2})$/;

/**
 * Teams' signature: `Authorization: HMAC <base64>`, where the base64 is
 * HMAC-SHA256(key = the base64-decoded security token, message = the body's exact bytes)
 * (https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-outgoing-webhook#create-a-method-to-verify-the-outgoing-webhook-hmac-token).
 */
export function teamsHmacMatches(secretBase64: string, raw: Buffer, authorization: string | undefined): boolean {
  const m = HMAC_HEADER.exec((authorization ?? '').trim());
  if (!m) return false;
  const expected = createHmac('sha256', Buffer.from(secretBase64, 'base64')).update(raw).digest();
  const given = Buffer.from(m[1], 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * What is wrong with a request's credentials (worded for the 401, never naming the secret),
 * or null when it carries what the bridge asks for. A bridge with neither relies on its
 * URL's unguessable key alone.
 */
export function inboundVerificationProblem(v: InboundVerification, fields: InboundFields | null, raw: Buffer, authorization: string | undefined): string | null {
  if (v.hmacSecret !== null) {
    if (!authorization) return 'needs the Authorization header Teams signs with (HMAC <base64>), and the request had none';
    return teamsHmacMatches(v.hmacSecret, raw, authorization) ? null : 'got an Authorization HMAC that does not match the body signed with the bridge\'s security token';
  }
  if (v.token !== null) {
    const given = fields?.token;
    if (given === undefined || given === '') return 'needs the platform\'s verification token (the token field), and the request had none';
    return tokenMatches(v.token, given) ? null : 'got a token that is not the bridge\'s inbound token';
  }
  return null;
}
