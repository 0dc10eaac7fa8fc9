import type { DeliveryStatusName } from './delivery-fields';

/** One attempt of a delivery, as the log shows it (API-neutral: each API shapes it). */
export interface DeliveryAttemptView {
  /** Its number, from 1. */
  attempt: number;
  /** ISO 8601: when it started. */
  at: string;
  /** The receiver's HTTP status; null when there was no answer (see `error`). */
  statusCode: number | null;
  durationMs: number;
  /** Why there was no usable answer (`timeout: ...`, `connection: ...`, `busy: ...`); null otherwise. */
  error: string | null;
}

/** An item of the delivery log. */
export interface DeliveryView {
  /** The delivery id: the `webhook-id` header the receiver saw, on every attempt. */
  id: string;
  webhookId: number;
  event: string;
  status: DeliveryStatusName;
  /** ISO 8601: when its event was matched to the webhook. */
  created: string;
  /** How many attempts were made. */
  attempts: number;
  /** ISO 8601: when the next attempt is due, while it is retrying. */
  nextAttemptAt: string | null;
  /** The latest attempt; null before the first. */
  lastAttempt: DeliveryAttemptView | null;
}

/** Where an item stands in its log's order (see deliveryField.position). */
export interface DeliveryPosition {
  /** `created_at` in UTC to the microsecond (2025-03-01T12:00:00.123456Z). */
  createdAt: string;
  id: string;
}

/** An item of a list of the log: the view, and its position, for the page after it. */
export interface DeliveryListItem extends DeliveryView {
  /** Absent from a dispatcher older than keyset pages (its caller links by start-index alone). */
  position?: DeliveryPosition;
}

/** An attempt with what the receiver answered. */
export interface DeliveryAttemptDetail extends DeliveryAttemptView {
  /** The answer's headers (null: no answer, or an attempt recorded before they were kept). */
  responseHeaders: Record<string, string> | null;
  /** The first KiB of the answer's body, secrets redacted. */
  responseBody: string | null;
}

/** One delivery in full: what was sent, every attempt, what became of a reply. */
export interface DeliveryDetailView extends DeliveryView {
  /**
   * The request as the latest attempt sent it (built again by the code that sends it, at
   * that attempt's time), with the JWT and the signature cut to their first characters.
   * `url` and `headers` are null when the webhook is gone (the body is what was stored).
   */
  request: { url: string | null; headers: Record<string, string> | null; body: string };
  /** Every attempt, oldest first. */
  attemptLog: DeliveryAttemptDetail[];
  /** The receiver's answer posted to the room as a notification (its message id), or why not. */
  reply: { messageId: string | null; error: string | null };
}
