import { createHash, randomBytes } from 'node:crypto';
import {
  BRIDGE_INBOUND_KINDS, BRIDGE_PLATFORM_NAMES, BridgeKind, BridgeSpec, commandFailure, DEFAULT_BRIDGE_EVENTS, WebhookEventName,
} from '@app/contracts';

/** How many bridges a room may have: each is a lane of ordered deliveries and a platform's rate limit. */
export const BRIDGES_PER_ROOM_MAX = 10;

/** The platforms inbound is for (contracts' BRIDGE_INBOUND_KINDS: the console offers it for them too). */
export const INBOUND_KINDS: readonly BridgeKind[] = BRIDGE_INBOUND_KINDS;

/** What a bridge describes, as stored (inbound secrets are handled apart: they are kept when a PUT leaves them out). */
export interface BridgeFields {
  kind: BridgeKind;
  url: string;
  events: WebhookEventName[];
  pattern: string | null;
  name: string;
  matrixRoomId: string | null;
  inboundEnabled: boolean;
}

const invalid = (field: string, problem: string) => commandFailure('invalid', 'rule', field, { problem });

/**
 * The rules between a request's fields (each field's own rule is its schema's, in
 * contracts): `matrix` with kind matrix only, and always there; inbound only for the
 * platforms that can send it, with the verification that platform uses; a pattern only
 * when room_message is forwarded (it filters message text; other events go unfiltered).
 * `creating`: a new Matrix bridge needs its access token (a PUT may leave it out: kept).
 */
export function assertBridgeSpec(spec: BridgeSpec, creating: boolean): void {
  const platform = BRIDGE_PLATFORM_NAMES[spec.kind];
  if (spec.kind === 'matrix') {
    if (!spec.matrix) throw invalid('matrix', 'is required for kind matrix ({room_id, access_token}: the room to post in and its bot user\'s token)');
    if (creating && spec.matrix.access_token === undefined) throw invalid('matrix.access_token', 'is required to create a Matrix bridge');
  } else if (spec.matrix !== undefined) {
    throw invalid('matrix', `applies to kind matrix only (kind is ${spec.kind})`);
  }
  const inbound = spec.inbound;
  if (inbound && !INBOUND_KINDS.includes(spec.kind)) {
    const field = inbound.enabled ? 'inbound.enabled' : inbound.token !== undefined ? 'inbound.token' : inbound.hmac_secret !== undefined ? 'inbound.hmac_secret' : null;
    if (field) {
      throw invalid(field, `${platform} has no outgoing webhooks to send its messages back: inbound is for kinds ${INBOUND_KINDS.join(', ')}`);
    }
  }
  if (inbound?.hmac_secret !== undefined && spec.kind !== 'teams') {
    throw invalid('inbound.hmac_secret', `applies to kind teams only (its outgoing webhooks sign with it); ${platform} sends a token: use inbound.token`);
  }
  if (inbound?.token !== undefined && spec.kind === 'teams') {
    throw invalid('inbound.token', 'Microsoft Teams sends no token: its outgoing webhooks are verified with inbound.hmac_secret');
  }
  if (inbound?.rotate && !inbound.enabled) throw invalid('inbound.rotate', 'needs inbound.enabled true (a disabled inbound URL has nothing to rotate)');
  if (spec.pattern !== undefined && !eventsOfSpec(spec).includes('room_message')) {
    throw invalid('pattern', 'filters message text: it needs room_message among events');
  }
}

/** The events a request forwards: its own, else DEFAULT_BRIDGE_EVENTS. */
export const eventsOfSpec = (spec: Pick<BridgeSpec, 'events'>): WebhookEventName[] =>
  [...((spec.events as WebhookEventName[] | undefined) ?? DEFAULT_BRIDGE_EVENTS)];

/** A request's fields, absent optional ones at their defaults (a PUT replaces them all). */
export const bridgeFieldsOf = (spec: BridgeSpec): BridgeFields => ({
  kind: spec.kind,
  url: spec.url,
  events: eventsOfSpec(spec),
  pattern: spec.pattern ?? null,
  name: spec.name ?? '',
  matrixRoomId: spec.matrix?.room_id ?? null,
  inboundEnabled: spec.inbound?.enabled ?? false,
});

/** A bridge's kind is what it is: another platform is another bridge. */
export function assertSameKind(stored: BridgeKind, asked: BridgeKind): void {
  if (stored !== asked) throw invalid('kind', `cannot change (this bridge is ${stored}): delete it and add a ${asked} bridge`);
}

export function assertUnderBridgeLimit(count: number, max = BRIDGES_PER_ROOM_MAX): void {
  if (count >= max) {
    throw commandFailure('invalid', 'rule', undefined, { problem: `at most ${max} bridges per room, and this room has ${count}: delete one first` });
  }
}

/** The key of an inbound URL: 32 random bytes, base64url (unguessable; shown once). */
export const newInboundKey = (): string => randomBytes(32).toString('base64url');

/** What is stored of an inbound key: its sha256 (the URL is a credential; a leaked table does not give it). */
export const inboundKeyHash = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

export const bridgeNotFound = (id: number) => commandFailure('not_found', 'bridge_not_found', 'bridge', { ref: String(id) });
