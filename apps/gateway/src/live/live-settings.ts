/** What the live connections are set to (from the gateway's configuration). */
export interface LiveSettings {
  heartbeatMs: number;
  /** Bytes a connection may leave unread before it is cut off. */
  maxPendingBytes: number;
  /** How long to wait for the broker when the first connection needs the events queue. */
  connectTimeoutMs: number;
  /** How long the events queue stays after the last connection ended (a reconnecting client finds it). */
  lingerMs: number;
}

export const LIVE_SETTINGS = Symbol('LIVE_SETTINGS');
