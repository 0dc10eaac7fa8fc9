import { NOTIFICATION_COLORS, type NotificationColor, type WebhookEventName } from '@app/contracts';
import { htmlDoc, plainText, textDoc } from './html';
import type { BridgeCard, BridgeFile, BridgeMessage, Doc, Inline } from './types';

/**
 * A room event's webhook `item` (libs/contracts/src/events/*) as the BridgeMessage every
 * platform renders. `item` is what the outbox carried: typed loosely, read defensively, so
 * an event of a later version never makes a bridge throw.
 */
export function toBridgeMessage(o: { event: WebhookEventName; item: any; deliveryId: string; card?: unknown }): BridgeMessage {
  const item = o.item ?? {};
  const base = {
    event: o.event,
    deliveryId: o.deliveryId,
    roomName: str(item.room?.name) ?? '',
    sender: null as string | null,
    notice: true,
    body: [] as Doc,
    color: null as NotificationColor | null,
    card: null as BridgeCard | null,
    file: null as BridgeFile | null,
  };
  const actor = senderName(item.sender);
  // Who did it opens the sentence; the post itself goes out under the bridge's own name.
  const sentence = (what: string, rest: Inline[] = []): Doc =>
    [{ t: 'paragraph', children: [{ t: 'bold', children: [{ t: 'text', text: actor ?? 'Someone' }] }, { t: 'text', text: ` ${what}` }, ...rest] }];

  switch (o.event) {
    case 'room_message': {
      const m = item.message ?? {};
      const file = fileOf(m.file);
      // A person's message is text (HipChat users cannot send html).
      const body = textDoc(str(m.message) ?? '');
      return { ...base, sender: senderName(m.from), notice: false, body: file ? [...body, fileParagraph(file)] : body, file };
    }
    case 'room_notification': {
      const m = item.message ?? {};
      const body = m.message_format === 'html' ? htmlDoc(str(m.message) ?? '') : textDoc(str(m.message) ?? '');
      const from = str(m.from);
      return {
        ...base,
        sender: from && from.trim() !== '' ? from.trim() : null,
        body,
        color: NOTIFICATION_COLORS.includes(m.color) ? (m.color as NotificationColor) : null,
        card: cardOf(o.card ?? item.card),
      };
    }
    case 'room_topic_change': {
      const topic = str(item.topic) ?? '';
      return { ...base, body: topic === '' ? sentence('cleared the topic') : sentence('set the topic: ', [{ t: 'text', text: topic }]) };
    }
    case 'room_file_upload': {
      const file = fileOf(item.file);
      return { ...base, sender: actor, notice: false, body: file ? [fileParagraph(file)] : [], file };
    }
    case 'room_enter': return { ...base, body: sentence('joined the room') };
    case 'room_exit': return { ...base, body: sentence('left the room') };
    case 'room_archived': return { ...base, body: sentence('archived the room') };
    case 'room_unarchived': return { ...base, body: sentence('unarchived the room') };
    case 'room_created': return { ...base, body: sentence(`created the room ${base.roomName}`.trimEnd()) };
    case 'room_deleted': return { ...base, body: sentence(`deleted the room ${base.roomName}`.trimEnd()) };
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A UserObject or an OAuth client by its name; a label as it is. */
function senderName(s: unknown): string | null {
  if (typeof s === 'string') return s.trim() === '' ? null : s;
  if (s && typeof s === 'object') {
    const o = s as { name?: unknown; mention_name?: unknown; id?: unknown };
    return str(o.name) || str(o.mention_name) || null;
  }
  return null;
}

const IMAGE_NAME = /\.(png|jpe?g|gif|webp|bmp|svg)$/i;

function fileOf(f: any): BridgeFile | null {
  if (!f || typeof f !== 'object' || !str(f.url)) return null;
  const name = str(f.name) ?? f.url;
  const thumb = str(f.thumb_url);
  return {
    name,
    size: typeof f.size === 'number' && f.size >= 0 ? f.size : 0,
    url: f.url,
    imageUrl: thumb ?? (IMAGE_NAME.test(name) ? f.url : null),
  };
}

function fileParagraph(f: BridgeFile): Doc[number] {
  return { t: 'paragraph', children: [{ t: 'link', href: f.url, children: [{ t: 'text', text: f.name }] }, { t: 'text', text: ` (${humanSize(f.size)})` }] };
}

/** Sizes as people read them: 1,000-based units as file managers and browsers show downloads. */
export function humanSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = bytes;
  let i = -1;
  while (v >= 1000 && i < units.length - 1) { v /= 1000; i++; }
  return `${v >= 100 ? Math.round(v) : v.toFixed(1).replace(/\.0$/, '')} ${units[i]}`;
}

/** A v2 card (libs/contracts/src/rules/card.ts), already validated when it was sent. */
function cardOf(c: unknown): BridgeCard | null {
  if (!c || typeof c !== 'object') return null;
  const card = c as Record<string, any>;
  const title = str(card.title);
  if (!title) return null;
  const urlOf = (v: unknown): string | null => (typeof v === 'string' ? v : v && typeof v === 'object' ? str((v as { url?: unknown }).url) : null);
  const d = card.description;
  const description = typeof d === 'string' ? textDoc(d)
    : d && typeof d === 'object' && typeof d.value === 'string' ? (d.format === 'html' ? htmlDoc(d.value) : textDoc(d.value)) : null;
  const activityHtml = card.activity && typeof card.activity.html === 'string' ? card.activity.html : null;
  return {
    style: str(card.style) ?? 'application',
    title,
    description: description && description.length > 0 ? description : null,
    url: str(card.url),
    thumbnail: urlOf(card.thumbnail),
    icon: urlOf(card.icon),
    // The activity line is html in HipChat; the platforms show it as a line of text.
    activity: activityHtml ? plainText(htmlDoc(activityHtml)) || null : null,
    attributes: Array.isArray(card.attributes) ? card.attributes.flatMap((a: any) => {
      const label = str(a?.value?.label);
      return label ? [{ label: str(a.label) ?? '', value: label, url: str(a.value.url) }] : [];
    }) : [],
  };
}
