import { bareUrl, maskedBridgeUrl } from '@app/common';
import { BRIDGE_PLATFORM_NAMES } from '@app/contracts';
import type { Actor, AuditAction, AuditEntryView, AuditSubject, BridgeKind } from '@app/contracts';

/** A line as a use case hands it to the audit log: the actor is resolved, the details cleaned, when it is written. */
export interface AuditLine {
  action: AuditAction;
  target: AuditSubject;
  details?: Record<string, unknown>;
  /** The client's address when no actor carries it (a sign-in throttled: the service acts, the guesses came from there). */
  address?: string;
}

/** What the database says of an actor (the names as they are now, copied into the line). */
export interface ActorFacts {
  userName?: string | null;
  tokenKind?: string | null;
  tokenLabel?: string | null;
  addonId?: number | null;
  addonName?: string | null;
}

/**
 * Who made a change, as the log names them. A user (personal token, session) is the user;
 * a token of an add-on its installation; any other token itself, by its label; no token
 * and no user is the operator's CLI; no actor at all is the service itself (a webhook
 * disabled for failing, a sign-in throttled).
 */
export function auditActorOf(actor: Actor | undefined, facts: ActorFacts = {}): AuditEntryView['actor'] {
  if (!actor) return { type: 'system', id: null, name: 'rooms service' };
  if (actor.userId !== undefined) return { type: 'user', id: actor.userId, name: facts.userName ?? actor.label };
  if (actor.tokenId !== undefined) {
    if (facts.tokenKind === 'addon') {
      return { type: 'addon', id: facts.addonId ?? null, name: facts.addonName ?? facts.tokenLabel ?? actor.label };
    }
    return { type: 'token', id: actor.tokenId, name: facts.tokenLabel ?? actor.label };
  }
  return { type: 'cli', id: null, name: actor.label || 'cli' };
}

/** Keys whose values are secrets, whatever they hold: never written to the log. */
const SECRET_KEY = /secret|token|password|passwd|credential|hash|signature|authorization|cookie|jwt/i;
const ABSOLUTE_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * A URL as the log keeps it: scheme, host and path, credentials gone, the query and
 * fragment masked (`?…`), where receivers and add-on frameworks put their secrets.
 */
export function maskUrl(url: string): string {
  const bare = bareUrl(url);
  return /[?#]/.test(String(url)) ? `${bare}?…` : bare;
}

/**
 * A URL of a line, masked: by maskUrl, but one a use case already masked as a bridge's
 * (maskedBridgeUrl, which masking again leaves as it is: a webhook's URL, see
 * webhookAuditUrl) keeps the names of its query.
 */
function maskedForLog(url: string): string {
  return maskedBridgeUrl(url) === url ? url : maskUrl(url);
}

/**
 * A webhook's URL as the log names it: as a bridge's (maskedBridgeUrl: scheme, host, the
 * path's first segment, `/***`, the query's names). Group admins read the log, and a
 * receiver's credential may be in the path (a Slack or Discord incoming webhook registered
 * as a HipChat webhook), not only in the query.
 */
export const webhookAuditUrl = (url: string): string => maskedBridgeUrl(url);

/** The details of a line with every secret-named key dropped and every URL masked, at any depth. */
export function cleanDetails(value: unknown): unknown {
  if (typeof value === 'string') return ABSOLUTE_URL.test(value.trim()) ? maskedForLog(value.trim()) : value;
  if (Array.isArray(value)) return value.map(cleanDetails);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (SECRET_KEY.test(k) || v === undefined) continue;
      out[k] = cleanDetails(v);
    }
    return out;
  }
  return value;
}

/** The target's name, cut to what the column holds (a name is never a secret; a URL is masked). */
export function cleanSubject(s: AuditSubject): AuditSubject {
  const name = ABSOLUTE_URL.test(s.name) ? maskedForLog(s.name) : s.name;
  return { type: s.type, id: s.id, name: name.slice(0, 254) };
}

export const roomSubject = (room: { id: number; name: string }): AuditSubject => ({ type: 'room', id: room.id, name: room.name });
export const userSubject = (user: { id: number; name: string }): AuditSubject => ({ type: 'user', id: user.id, name: user.name });
export const tokenSubject = (token: { id: number; label: string }): AuditSubject => ({ type: 'token', id: token.id, name: token.label });
export const addonSubject = (i: { id: number; name: string }): AuditSubject => ({ type: 'addon', id: i.id, name: i.name });
/** A webhook by its name, else its URL (masked: webhookAuditUrl). */
export const webhookSubject = (w: { id: number; name?: string | null; url: string }): AuditSubject =>
  ({ type: 'webhook', id: w.id, name: w.name || webhookAuditUrl(w.url) });

/**
 * A bridge by its name, else its platform: never its URL, even masked (a Slack or Discord
 * incoming-webhook URL carries its credential in the path, which maskUrl keeps).
 */
export const bridgeSubject = (b: { id: number; name?: string | null; kind: BridgeKind }): AuditSubject =>
  ({ type: 'bridge', id: b.id, name: b.name || `${BRIDGE_PLATFORM_NAMES[b.kind]} bridge` });

/** What a room update changes that the audit log records (ownership, privacy, archiving), judged before it is applied. */
export function roomChangeLines(
  room: { id: number; name: string; privacy: string; ownerUserId: number | null },
  changes: { privacy?: string; ownerUserId?: number | null; isArchived?: boolean },
  newOwner?: { id: number; name: string } | null,
): AuditLine[] {
  const target = roomSubject(room);
  const lines: AuditLine[] = [];
  if (changes.ownerUserId !== undefined && changes.ownerUserId !== room.ownerUserId) {
    lines.push({ action: 'room.owner_changed', target, details: { from: room.ownerUserId, to: newOwner ? { id: newOwner.id, name: newOwner.name } : changes.ownerUserId } });
  }
  if (changes.privacy !== undefined && changes.privacy !== room.privacy) {
    lines.push({ action: 'room.privacy_changed', target, details: { from: room.privacy, to: changes.privacy } });
  }
  if (changes.isArchived !== undefined) lines.push({ action: changes.isArchived ? 'room.archived' : 'room.unarchived', target });
  return lines;
}
