import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { V2_SCOPES, V2Scope, v2Links } from '@app/contracts';

/** The group every installation belongs to: this service hosts one. */
export const GROUP_ID = 1;

/** A new installation's OAuth client: a UUID id, and 32 random bytes (base64url) as its secret. */
export function newOAuthClient(): { oauthId: string; oauthSecret: string } {
  return { oauthId: randomUUID(), oauthSecret: randomBytes(32).toString('base64url') };
}

/**
 * The service's capabilities document (the gateway's `/v2/capabilities`, whose `links.self`
 * is this very string): frameworks fetch it from the installation's `capabilitiesUrl` to
 * find the API and the OAuth token URL, and compare it with `links.self`.
 */
export const capabilitiesUrlOf = (publicBaseUrl: string): string => v2Links(publicBaseUrl).capabilities;

/**
 * The installation callback's body. Frameworks check the types: `groupId` and `roomId`
 * numbers (`roomId` absent group-wide), `capabilitiesUrl` our capabilities document.
 */
export function installationBody(a: { oauthId: string; oauthSecret: string; capabilitiesUrl: string; roomId: number | null }) {
  return {
    oauthId: a.oauthId,
    oauthSecret: a.oauthSecret,
    capabilitiesUrl: a.capabilitiesUrl,
    ...(a.roomId !== null ? { roomId: a.roomId } : {}),
    groupId: GROUP_ID,
  };
}

/** `DELETE {callbackUrl}/{oauthId}`: the id appended to the callback's path, its query string kept. */
export function uninstallUrl(callbackUrl: string, oauthId: string): string {
  const url = new URL(callbackUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${encodeURIComponent(oauthId)}`;
  return url.toString();
}

/** Compares a presented secret with the stored one in constant time (whatever their lengths). */
export function secretMatches(presented: string, stored: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(stored));
}

export type ScopeGrant = { ok: true; scopes: V2Scope[] } | { ok: false; scope: string; problem: string };

/**
 * The scopes a token gets: those asked for, each one the client may have (what its
 * descriptor asked for); none asked for means all of them.
 */
export function grantScopes(requested: readonly string[] | undefined, allowed: readonly V2Scope[]): ScopeGrant {
  const asked = (requested ?? []).filter((s) => s !== '');
  if (asked.length === 0) return { ok: true, scopes: [...allowed] };
  for (const scope of asked) {
    if (!(V2_SCOPES as readonly string[]).includes(scope)) {
      return { ok: false, scope, problem: `unknown scope "${scope.slice(0, 60)}" (the scopes are ${V2_SCOPES.join(', ')})` };
    }
    if (!allowed.includes(scope as V2Scope)) {
      return {
        ok: false, scope,
        problem: `the scope ${scope} was not requested by the add-on's descriptor (capabilities.hipchatApiConsumer.scopes: ${allowed.join(', ') || 'none'})`,
      };
    }
  }
  return { ok: true, scopes: [...new Set(asked as V2Scope[])] };
}
