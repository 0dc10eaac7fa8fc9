import { DEFAULT_OUTBOUND_USER_AGENT, SecretBox, SecretBoxError, secretPurpose } from '@app/common';
import { WEBHOOK_EVENT_SOURCES, type BridgeTarget, type WebhookEventName, type WebhookRegistration } from '@app/contracts';
import { FORMATS } from './formats';
import { toBridgeMessage } from './formats/message';
import type { BridgeMessage, PlatformPost } from './formats/types';
import { urlProblemOf } from '../registrations/opened-urls';

/** A registration that is a bridge. */
export type BridgeRegistration = WebhookRegistration & { bridge: BridgeTarget };

/**
 * A bridge's delivery body: the event as its BridgeMessage (what every platform renders),
 * built once when the event is matched, from the event's full payload (a notification's v2
 * card included, which the HipChat item never carried). Throws, as the HipChat envelope
 * does, when the event's item is not an object.
 */
export function bridgeMessageBody(o: { event: WebhookEventName; payload: unknown; deliveryId: string }): string {
  const source = WEBHOOK_EVENT_SOURCES[o.event];
  if (!source) throw new TypeError(`no webhook event named ${String(o.event)}`);
  const item = source.item(o.payload);
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new TypeError(`the ${o.event} event's item is not an object`);
  const card = (o.payload as { card?: unknown } | null)?.card;
  return JSON.stringify(toBridgeMessage({ event: o.event, item, deliveryId: o.deliveryId, card }));
}

/** The posts of one or more consecutive deliveries of a bridge (coalesced when several), in order. */
export function bridgePosts(bridge: BridgeTarget, bodies: readonly string[]): PlatformPost[] {
  const messages = bodies.map((b) => JSON.parse(b) as BridgeMessage);
  return FORMATS[bridge.kind](messages, { kind: bridge.kind, matrixRoomId: bridge.matrixRoomId });
}

/** One post as it is sent: where, with which headers (Authorization only for Matrix), the exact body. */
export interface BridgeRequest {
  method: 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * The HTTP request of a post: to the bridge's URL (Matrix: its homeserver's base URL) with
 * the post's path appended, the body as JSON, and for Matrix the bot's access token.
 */
export function bridgeRequest(url: string, post: PlatformPost, accessToken: string | null): BridgeRequest {
  const body = JSON.stringify(post.body);
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body, 'utf8')),
    'User-Agent': DEFAULT_OUTBOUND_USER_AGENT,
  };
  if (accessToken !== null) headers.Authorization = `Bearer ${accessToken}`;
  return { method: post.method, url: post.path === '' ? url : `${url.replace(/\/+$/, '')}${post.path}`, headers, body };
}

/** The request as the delivery log shows it: no Authorization header (the rest is what was sent). */
export function shownBridgeRequest(request: BridgeRequest): { headers: Record<string, string>; body: string } {
  const { Authorization: _hidden, ...headers } = request.headers;
  return { headers, body: request.body };
}

/**
 * What of a bridge no record or log may show: the URL is the credential (its path's tokens:
 * Slack's `/services/T/B/SECRET`, Discord's `/api/webhooks/ID/TOKEN`, Mattermost's
 * `/hooks/KEY`; its query's values: Google Chat's `key` and `token`, Teams' `sig`), and the
 * Matrix access token.
 */
export function bridgeSecrets(url: string, accessToken: string | null): string[] {
  const secrets: string[] = accessToken ? [accessToken] : [];
  try {
    const u = new URL(url);
    const segments = u.pathname.split('/').filter((s) => s !== '').map(safeDecode);
    // Every segment after the first but plain words ("webhooks", "services"): ids and tokens.
    for (const s of segments.slice(1)) if (s.length >= 4 && !/^[a-z-]+$/.test(s)) secrets.push(s);
    for (const v of u.searchParams.values()) if (v.length >= 4) secrets.push(v);
  } catch {
    // Not a URL: nothing was sent to it.
  }
  return secrets;
}

/**
 * A Matrix bridge's access token in clear, opened here, where it is sent (the rooms service
 * keeps it sealed, purpose secretPurpose.bridgeToken(id)); null for the other platforms. A
 * message (never the value) when it cannot be opened.
 */
export function accessTokenOf(registration: BridgeRegistration, box: SecretBox): { token: string | null } | { problem: string } {
  // Nothing is posted to a URL no key opened (withOpenedUrls): it fails as a token that cannot be opened does.
  const urlProblem = urlProblemOf(registration);
  if (urlProblem !== null) return { problem: urlProblem };
  if (registration.bridge.kind !== 'matrix') return { token: null };
  const sealed = registration.bridge.matrixAccessToken;
  if (typeof sealed !== 'string' || sealed === '') return { problem: 'not sent: the Matrix bridge has no access token' };
  try {
    return { token: box.reveal(sealed, secretPurpose.bridgeToken(registration.id)) };
  } catch (err) {
    if (err instanceof SecretBoxError) return { problem: `not sent: its access token cannot be decrypted: ${err.message}` };
    throw err;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
