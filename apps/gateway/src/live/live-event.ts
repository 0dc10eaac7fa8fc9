import {
  EventEnvelope, FileObject, PrivateMessageSentV1, RoomAccessNarrowedV1, RoomMemberAddedV1, RoomNotificationSentV2Payload, TokenRevokedV1, WEBHOOK_EVENT_NAMES,
  WEBHOOK_EVENT_SOURCES, WebhookEventName,
} from '@app/contracts';
import { sseEvent } from './sse';

/** One room event as live connections send it: framed once, written to every connection of its room. */
export interface LiveEvent {
  roomId: number;
  /** The room's sequence: the SSE `id`, what Last-Event-ID resumes from. */
  seq: number;
  name: WebhookEventName;
  /** The SSE frame: `id:` the sequence, `event:` the webhook event name, `data:` the webhook's item. */
  frame: string;
  /**
   * The frame a person's stream (GET /v2/user/{user}/events) sends, for the events it carries
   * (USER_STREAM_EVENTS): the same without `id:`, as that stream mixes rooms and does not resume.
   */
  userFrame?: string;
}

/** The room events a person's stream carries for the rooms of their chats: what was said there. */
export const USER_STREAM_EVENTS: ReadonlySet<WebhookEventName> = new Set(['room_message', 'room_notification', 'room_file_upload']);

/**
 * The room events live connections carry: every version 2 room event (as the dispatcher
 * binds); and the notices that a reader may have lost access to a room, or that a token was
 * revoked, on the same queue so that they arrive before any event committed after the change;
 * and, for people's streams, private messages and members added to private rooms.
 */
export const LIVE_EVENT_BINDINGS = [
  'room.*.v2', RoomAccessNarrowedV1.routingKey, TokenRevokedV1.routingKey, PrivateMessageSentV1.routingKey, RoomMemberAddedV1.routingKey,
];

const NAME_OF_ROUTING_KEY: ReadonlyMap<string, WebhookEventName> = new Map(
  WEBHOOK_EVENT_NAMES.map((name) => [WEBHOOK_EVENT_SOURCES[name].routingKey, name]),
);

/**
 * A published room event as its live connections see it: the item a webhook receives
 * (WEBHOOK_EVENT_SOURCES, as the dispatcher builds it), under the webhook event's name; a
 * notification's card besides, in its message as the history has it (JSON text), since a live
 * reader shows the card as a reload would (the webhook's item never carried it); a shared
 * file with its plain URLs (withPlainFileUrls), never the webhook's signed links.
 * Null for what is not a room event with a sequence (nothing a live connection shows).
 */
export function toLiveEvent(routingKey: string, envelope: EventEnvelope): LiveEvent | null {
  const name = NAME_OF_ROUTING_KEY.get(routingKey);
  const roomId = (envelope.payload as { room?: { id?: unknown } } | null)?.room?.id;
  const seq = envelope.sequence;
  if (!name || typeof roomId !== 'number' || typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) return null;
  let item = WEBHOOK_EVENT_SOURCES[name].item(envelope.payload);
  const card = name === 'room_notification' ? (envelope.payload as RoomNotificationSentV2Payload).card : undefined;
  if (card && item.message && typeof item.message === 'object') item = { ...item, message: { ...item.message, card: JSON.stringify(card) } };
  if (name === 'room_file_upload') item = withPlainFileUrls(item);
  const data = JSON.stringify(item);
  return {
    roomId, seq, name, frame: sseEvent({ id: seq, event: name, data }),
    ...(USER_STREAM_EVENTS.has(name) ? { userFrame: sseEvent({ event: name, data }) } : {}),
  };
}

/** A signed file link's parameters (FileLinks): what a person's copy of a link never carries. */
const SIGNED_LINK_PARAMS = ['expires', 'issued', 'signature'];

/** A file URL without a signed link's parameters: the URL the history shows. */
export function plainFileUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const p of SIGNED_LINK_PARAMS) params.delete(p);
  const rest = params.toString();
  return rest ? `${url.slice(0, q)}?${rest}` : url.slice(0, q);
}

/**
 * A room_file_upload item as people see it live: the file's plain URLs. People fetch files
 * with their token or session, judged at every request; a signed link is a bearer link that
 * would outlive their access (issue 34: losing access loses everything). Webhooks and bridges,
 * whose receivers fetch without credentials, keep the signed links (revoked with access).
 */
export function withPlainFileUrls(item: Record<string, unknown>): Record<string, unknown> {
  const file = item.file as FileObject | undefined;
  if (!file || typeof file !== 'object' || typeof file.url !== 'string') return item;
  const plain: FileObject = { ...file, url: plainFileUrl(file.url), ...(typeof file.thumb_url === 'string' ? { thumb_url: plainFileUrl(file.thumb_url) } : {}) };
  return { ...item, file: plain };
}

/** Why a live connection was ended: sent as an `error` event (JSON), then the stream ends. */
export interface StreamProblem {
  code: 'last_event_id_expired' | 'last_event_id_unknown' | 'resume_failed' | 'slow_client' | 'token_revoked' | 'access_revoked' | 'room_deleted' | 'events_missed';
  message: string;
}

/** The `error` event: no `id`, so the client's Last-Event-ID stays the last event it got. */
export function problemFrame(problem: StreamProblem): string {
  return sseEvent({ event: 'error', data: JSON.stringify({ error: problem }) });
}

export const ACCESS_REVOKED: StreamProblem = {
  code: 'access_revoked',
  message: 'You may no longer read this room (you were removed from it, it became private, or your user was deleted or is no longer a group admin): ' +
    'this stream has ended, and reconnecting will be refused.',
};

export const TOKEN_REVOKED: StreamProblem = {
  code: 'token_revoked',
  message: 'The session or token this stream was opened with has ended. Sign in again (or use another token) and reconnect.',
};

export const ROOM_DELETED: StreamProblem = {
  code: 'room_deleted',
  message: 'This room was deleted (the room_deleted event above): this stream has ended, and there is nothing to reconnect to.',
};

/** A person's stream after the broker was away: it cannot say what it missed, so the client reconnects and reads its chats again. */
export const EVENTS_MISSED: StreamProblem = {
  code: 'events_missed',
  message: 'Events may have been missed while the message broker was unreachable: reconnect, and read GET /v2/user/{user}/chats again.',
};
