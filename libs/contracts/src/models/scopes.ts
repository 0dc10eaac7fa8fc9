/**
 * The scopes of v2 tokens, as HipChat named them. A model of its own (no schema library):
 * the token commands and the browser console both import it.
 */
export const V2_SCOPES = [
  'admin_group', 'admin_room', 'manage_rooms', 'send_message', 'send_notification', 'view_group', 'view_messages', 'view_room',
] as const;
export type V2Scope = (typeof V2_SCOPES)[number];
