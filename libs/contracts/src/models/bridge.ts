import type { WebhookEventName } from './webhook-event-names';

/**
 * The chat platforms a room can be bridged to (our extension of the v2 API:
 * `/v2/room/{room}/bridge`). A bridge is kept and delivered as a webhook registration with
 * `bridge` set (see WebhookRegistration.bridge): it has a webhook's outbox, retries, ordered
 * lane, delivery log, health and disabling, and posts in its platform's format instead of
 * the HipChat envelope.
 */
export const BRIDGE_KINDS = ['slack', 'mattermost', 'discord', 'teams', 'googlechat', 'rocketchat', 'matrix'] as const;
export type BridgeKind = (typeof BRIDGE_KINDS)[number];

/** What people read: the name each platform goes by, in prose and in `from` ("Grace Hopper (Mattermost)"). */
export const BRIDGE_PLATFORM_NAMES: Readonly<Record<BridgeKind, string>> = {
  slack: 'Slack',
  mattermost: 'Mattermost',
  discord: 'Discord',
  teams: 'Microsoft Teams',
  googlechat: 'Google Chat',
  rocketchat: 'Rocket.Chat',
  matrix: 'Matrix',
};

/**
 * The platforms whose channels can send what people write to a URL of ours (inbound):
 * Slack-style outgoing webhooks (Slack's legacy ones, Mattermost, Rocket.Chat) and Teams'
 * outgoing webhooks. Discord, Google Chat and Matrix have no such webhook (a bot would be
 * needed). The rooms service refuses inbound for the others; the console offers it for these.
 */
export const BRIDGE_INBOUND_KINDS: readonly BridgeKind[] = ['slack', 'mattermost', 'rocketchat', 'teams'];

/** The events a bridge forwards when it names none. */
export const DEFAULT_BRIDGE_EVENTS: readonly WebhookEventName[] = ['room_message', 'room_notification', 'room_topic_change', 'room_file_upload'];

/** What a registration that is a bridge carries besides a webhook's fields (WebhookRegistration.bridge). */
export interface BridgeTarget {
  kind: BridgeKind;
  /** The events it forwards (a webhook has one, `event`; a bridge's `event` is the first of these). */
  events: WebhookEventName[];
  /** Matrix only: the room it posts in (`!abc:example.org`); else null. */
  matrixRoomId: string | null;
  /**
   * Matrix only: the bot user's access token, sealed as a webhook's secret is (SecretBox,
   * secretPurpose.bridgeToken(id)); opened only where it is sent. Else null.
   */
  matrixAccessToken: string | null;
}

/** The events a registration is matched for: a webhook's one, or a bridge's list. */
export const eventsOf = (r: { event: WebhookEventName; bridge?: BridgeTarget | null }): readonly WebhookEventName[] =>
  r.bridge ? r.bridge.events : [r.event];

/** Whether a registration is a bridge (posts to a chat platform) rather than a HipChat webhook. */
export const isBridge = (r: { bridge?: BridgeTarget | null }): boolean => r.bridge != null;
