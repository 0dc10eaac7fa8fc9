import type { RoomLinks } from '../models/webhook-objects';

/** A room or user as a path names it: an id, or the name (e-mail, @mention) the client sent. */
type Ref = number | string;

/**
 * The v2 API's URLs, built from the public base URL (no trailing slash; '' gives paths). The
 * gateway's answers and the rooms service's event payloads both link with it, so a client
 * that follows a link from either gets the same URL. A reference the client sent is encoded
 * as a path segment (an id is digits, left as it is).
 */
export function v2Links(base: string): V2Links {
  let links = built.get(base);
  if (!links) {
    if (built.size >= 8) built.clear();
    links = buildLinks(base);
    built.set(base, links);
  }
  return links;
}

export type V2Links = ReturnType<typeof buildLinks>;

/**
 * Presenters ask for every item of a list, with the service's one base URL (or '' for paths):
 * the builders are made once per base, not per item.
 */
const built = new Map<string, V2Links>();

function buildLinks(base: string) {
  const api = `${base}/v2`;
  const room = (ref: Ref) => `${api}/room/${encodeURIComponent(ref)}`;
  const user = (ref: Ref) => `${api}/user/${encodeURIComponent(ref)}`;
  const webhook = (roomRef: Ref, id: number) => `${room(roomRef)}/webhook/${id}`;
  const bridge = (roomRef: Ref, id: number) => `${room(roomRef)}/bridge/${id}`;
  return {
    /** `links.api` of the capabilities document: frameworks append `/room/...`, so no trailing slash. */
    api,
    capabilities: `${api}/capabilities`,
    oauthToken: `${api}/oauth/token`,
    rooms: `${api}/room`,
    room,
    /** A room's `links` (the webhook Room object's, and every room record's): `members` for private rooms only. */
    roomLinks(r: { id: number; privacy: 'public' | 'private' }): RoomLinks {
      const self = room(r.id);
      return {
        self,
        participants: `${self}/participant`,
        webhooks: `${self}/webhook`,
        ...(r.privacy === 'private' ? { members: `${self}/member` } : {}),
      };
    },
    roomStatistics: (roomRef: Ref) => `${room(roomRef)}/statistics`,
    members: (roomRef: Ref) => `${room(roomRef)}/member`,
    participants: (roomRef: Ref) => `${room(roomRef)}/participant`,
    history: (roomRef: Ref) => `${room(roomRef)}/history`,
    latestHistory: (roomRef: Ref) => `${room(roomRef)}/history/latest`,
    webhooks: (roomRef: Ref) => `${room(roomRef)}/webhook`,
    webhook,
    webhookDeliveries: (roomRef: Ref, id: number) => `${webhook(roomRef, id)}/delivery`,
    webhookDeliveryStats: (roomRef: Ref, id: number) => `${webhook(roomRef, id)}/delivery-stats`,
    webhookEnable: (roomRef: Ref, id: number) => `${webhook(roomRef, id)}/enable`,
    bridges: (roomRef: Ref) => `${room(roomRef)}/bridge`,
    bridge,
    bridgeDeliveries: (roomRef: Ref, id: number) => `${bridge(roomRef, id)}/delivery`,
    bridgeDeliveryStats: (roomRef: Ref, id: number) => `${bridge(roomRef, id)}/delivery-stats`,
    users: `${api}/user`,
    user,
    privateLatestHistory: (userRef: Ref) => `${user(userRef)}/history/latest`,
    tokens: `${api}/token`,
    audit: `${api}/audit`,
    addons: `${api}/addons`,
    addon: (id: number) => `${api}/addons/${id}`,
    emoticons: `${api}/emoticon`,
    emoticon: (id: number) => `${api}/emoticon/${id}`,
  };
}

/**
 * A delivery of a webhook (or bridge) under its owner's own URL (its `links.self`): the
 * delivery log keeps one shape whichever resource delivered.
 */
export const deliveryLink = (ownerSelf: string, deliveryId: string): string => `${ownerSelf}/delivery/${deliveryId}`;
