import type { BridgeTarget } from './bridge';
import type { WebhookEventName } from './webhook-event-names';

export const WEBHOOK_AUTHENTICATIONS = ['jwt', 'none'] as const;
export type WebhookAuthentication = (typeof WEBHOOK_AUTHENTICATIONS)[number];

/**
 * How a webhook's deliveries are made (our extension, `"delivery"`): `concurrent`, as
 * HipChat did, each as soon as it can; `ordered`, those of one room one at a time in the
 * order of the room's events, a delivery being retried holding back only the later ones of
 * that room to that webhook.
 */
export const WEBHOOK_DELIVERY_MODES = ['concurrent', 'ordered'] as const;
export type WebhookDeliveryMode = (typeof WEBHOOK_DELIVERY_MODES)[number];

/** What a webhook is set to: as registered through the API, or as an add-on's descriptor declares it. */
export interface WebhookSettings {
  event: WebhookEventName;
  url: string;
  pattern: string | null;
  name: string;
  authentication: WebhookAuthentication;
  delivery: WebhookDeliveryMode;
  /** The integration's key for it (1-40 characters), unique within the integration. */
  key: string | null;
}

/**
 * How a webhook's deliveries have been going, as the dispatchers report their attempts to
 * the rooms service. Times are ISO 8601.
 */
export interface WebhookHealthView {
  /** The latest delivered attempt; null when none was seen. */
  lastSuccessAt: string | null;
  /** The first failed attempt after the last success; null while it succeeds. */
  failingSince: string | null;
  /** Failed attempts since the last success (or since it was last enabled). */
  consecutiveFailures: number;
  lastFailureAt: string | null;
  /** A short description of the latest failure (`HTTP 500`, `timeout`): no body, no secret. */
  lastError: string | null;
}

/** What a webhook that has never been attempted shows. */
export const NO_WEBHOOK_HEALTH: Readonly<WebhookHealthView> = Object.freeze({
  lastSuccessAt: null, failingSince: null, consecutiveFailures: 0, lastFailureAt: null, lastError: null,
});

/** A webhook as the API shows it: never its signing secret. */
export interface WebhookView extends WebhookSettings {
  id: number;
  /** Null for the webhooks of an add-on installed group-wide: every room's events. */
  roomId: number | null;
  /** Set for webhooks an installed add-on declared: those cannot be changed through the API. */
  installationId: number | null;
  oauthClientId: string | null;
  created: string;
  /** False once disabled for failing too long: no event is delivered to it until it is enabled again. */
  enabled: boolean;
  /** Why it was disabled (null while enabled). */
  disabledReason: string | null;
  disabledAt: string | null;
  health: WebhookHealthView;
  /**
   * True when `url` is shown masked (maskedUrl in @app/common) because whoever asked is not
   * the webhook's creator: what they are shown of its deliveries' URL is masked the same.
   */
  urlMasked?: boolean;
}

/**
 * What a dispatcher needs to deliver: the webhook and the key it signs with (the add-on's
 * oauthSecret, or the secret of a REST registration), and who registered it (the JWT's
 * `sub`). Travels only between the rooms service and the dispatchers.
 */
export interface WebhookRegistration extends Omit<WebhookView, 'enabled' | 'disabledReason' | 'disabledAt' | 'health'> {
  secret: string;
  /**
   * False: disabled, events are not matched with this form (see isEnabled). The rooms
   * service always says; absent means enabled.
   */
  enabled?: boolean;
  /** The user whose token registered it; null for add-on webhooks. */
  userId: number | null;
  /**
   * The name of the add-on it belongs to (declared in its descriptor, or registered with one
   * of its tokens): the sender of its replies, as HipChat showed an add-on's notifications.
   * Absent or null for a user's registration.
   */
  addonName?: string | null;
  /**
   * The registrations' versions this form of the webhook is in force for: from
   * `createdVersion` (its creation, or the change that gave it this form) up to, not
   * including, `removedVersion` (null: in force now). An event stamped v is matched with the
   * forms in force at v. Absent: in force now, for every version.
   */
  createdVersion?: number;
  removedVersion?: number | null;
  /**
   * Set when the registration is a bridge to a chat platform (see BridgeTarget): matched for
   * each of `bridge.events`, always delivered in order, in the platform's format. Absent or
   * null: a HipChat webhook.
   */
  bridge?: BridgeTarget | null;
}

/**
 * Whether events are matched with this form of a registration (`enabled` false: disabled;
 * absent, from a rooms service that predates it: enabled).
 */
export const isEnabled = (r: Pick<WebhookRegistration, 'enabled'>): boolean => r.enabled !== false;

/**
 * Whether the webhook's deliveries are ordered (absent, from a rooms service that predates the
 * setting: concurrent). A bridge always is, whatever its row says: people read its posts in order.
 */
export const isOrdered = (r: Pick<WebhookRegistration, 'delivery' | 'bridge'>): boolean => r.delivery === 'ordered' || r.bridge != null;
