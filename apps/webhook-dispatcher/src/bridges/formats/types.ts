import type { BridgeKind, NotificationColor, WebhookEventName } from '@app/contracts';

/**
 * The platform-neutral form of what a room event says, which every platform's format
 * renders (event in, payload out: plain functions, no I/O). HipChat html is parsed into
 * it once (a maintained HTML parser, never a regex), entities decoded once.
 */

/** Inline content. */
export type Inline =
  | { t: 'text'; text: string }
  | { t: 'bold'; children: Inline[] }
  | { t: 'italic'; children: Inline[] }
  | { t: 'code'; text: string }
  | { t: 'link'; href: string; children: Inline[] }
  | { t: 'image'; src: string; alt: string }
  | { t: 'br' };

/** Block content: a message is a list of blocks. */
export type Block =
  | { t: 'paragraph'; children: Inline[] }
  | { t: 'pre'; text: string }
  | { t: 'list'; ordered: boolean; items: Block[][] }
  /** `header`: the first row is a header row (th cells, or a thead). */
  | { t: 'table'; header: boolean; rows: Inline[][][] };

export type Doc = Block[];

/** A notification card (v2 `card`), as the platforms show one. */
export interface BridgeCard {
  style: string;
  title: string;
  description: Doc | null;
  url: string | null;
  thumbnail: string | null;
  icon: string | null;
  activity: string | null;
  attributes: Array<{ label: string; value: string; url: string | null }>;
}

/** A file shared in the room. */
export interface BridgeFile {
  name: string;
  size: number;
  url: string;
  /** A thumbnail, or the file itself when it is an image a platform can show. */
  imageUrl: string | null;
}

/**
 * One room event as every platform renders it: who sent it, what it says, how it looks.
 * Built from the event's item (toBridgeMessage) once per delivery.
 */
export interface BridgeMessage {
  event: WebhookEventName;
  /** The delivery it comes from (Matrix transaction ids are derived from it). */
  deliveryId: string;
  roomName: string;
  /** Who it is from, as people read it ("Ada Lovelace", "Build bot", "Grace Hopper (Mattermost)"); null: nobody named. */
  sender: string | null;
  /** An integration's notification (Matrix `m.notice`) rather than a person's message (`m.text`). */
  notice: boolean;
  /**
   * What it says. With a card, the notification's message: the card's fallback, which the
   * formats that show the card leave out (Slack keeps it as the attachment's `fallback`).
   * With a file, the file's link and size already: the formats add only what they show of
   * its image.
   */
  body: Doc;
  /** The notification's colour; `random` was picked once, when it was sent. */
  color: NotificationColor | null;
  card: BridgeCard | null;
  file: BridgeFile | null;
}

/** One HTTP request to a platform: one post (a message split for the platform's limits is several). */
export interface PlatformPost {
  method: 'POST' | 'PUT';
  /** Appended to the bridge's URL (Matrix: `/_matrix/client/v3/rooms/{roomId}/send/m.room.message/{txnId}`); '' for the URL itself. */
  path: string;
  /** The JSON body. */
  body: Record<string, unknown>;
}

/** A platform's format: messages in (one, or several consecutive ones coalesced), posts out, in order. */
export type PlatformFormat = (messages: readonly BridgeMessage[], target: { kind: BridgeKind; matrixRoomId: string | null }) => PlatformPost[];
