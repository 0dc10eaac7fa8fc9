/**
 * The ten webhook events a registration can name. A model of their own: the registration
 * models name them and the event sources (events/webhook-events.ts) map them, so both import
 * them from here without importing each other.
 */
export const WEBHOOK_EVENT_NAMES = [
  'room_archived', 'room_created', 'room_deleted', 'room_unarchived', 'room_topic_change',
  'room_enter', 'room_exit', 'room_file_upload', 'room_message', 'room_notification',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];
