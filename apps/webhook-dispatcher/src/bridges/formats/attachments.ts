import { COLORS } from './colors';
import { plainText } from './html';
import { clip, summary, textPieces, type Piece } from './pack';
import { renderDoc, type Dialect } from './render';
import { partText, splitText } from './split';
import type { BridgeCard, BridgeMessage } from './types';

/**
 * Mattermost and Rocket.Chat take Slack-shaped attachments in Markdown with a hex colour
 * (https://developers.mattermost.com/integrate/reference/message-attachments/,
 * https://developer.rocket.chat/apidocs/post-message#attachment-field-objects). One builder
 * for both: they differ in their limits, their dialect and the footer Rocket.Chat lacks.
 */
export type Attachment = Record<string, unknown>;

export interface AttachmentPlatform {
  dialect: Dialect;
  /** Characters of one post's text (and of its attachments' text with it). */
  limit: number;
  /** Rocket.Chat's attachments have no footer: the card's activity line ends its text. */
  footer: boolean;
}

export function attachmentPieces(m: BridgeMessage, p: AttachmentPlatform): Array<Piece<Attachment>> {
  const color = m.color ? COLORS[m.color].hex : null;
  const pieces: Array<Piece<Attachment>> = [];
  if (m.card) {
    pieces.push(cardAttachment(m.card, color, summary(plainText(m.body)) || m.card.title, p));
  } else {
    const text = renderDoc(m.body, p.dialect);
    if (color) {
      const fallback = summary(plainText(m.body));
      for (const part of splitText(text, p.limit - fallback.length).map(partText)) {
        pieces.push({ kind: 'attachment', value: { color, fallback, text: part }, size: part.length + fallback.length });
      }
    } else {
      pieces.push(...textPieces<Attachment>(splitText(text, p.limit).map(partText)));
    }
  }
  if (m.file?.imageUrl) {
    pieces.push({ kind: 'attachment', value: { fallback: m.file.name, title: m.file.name, title_link: m.file.url, image_url: m.file.imageUrl }, size: 2 * m.file.name.length });
  }
  return pieces;
}

function cardAttachment(card: BridgeCard, color: string | null, fallback: string, p: AttachmentPlatform): Piece<Attachment> {
  const description = card.description ? renderDoc(card.description, p.dialect) : '';
  const activity = card.activity ? p.dialect.italic(p.dialect.escape(card.activity)) : '';
  const text = p.footer || !activity ? description : [description, activity].filter((s) => s !== '').join('\n\n');
  const fields = card.attributes.map((a) => ({
    title: a.label,
    value: a.url ? p.dialect.link(a.url, a.value) : p.dialect.escape(a.value),
    short: true,
  }));
  const value: Attachment = {
    ...(color ? { color } : {}),
    fallback: clip(fallback, 300),
    title: card.title,
    ...(card.url ? { title_link: card.url } : {}),
    ...(text ? { text } : {}),
    ...(fields.length > 0 ? { fields } : {}),
    ...(card.thumbnail ? (card.style === 'image' ? { image_url: card.thumbnail } : { thumb_url: card.thumbnail }) : {}),
    ...(p.footer && card.activity ? { footer: card.activity } : {}),
    ...(p.footer && card.icon ? { footer_icon: card.icon } : {}),
  };
  const size = String(value.fallback).length + card.title.length + text.length + (p.footer ? card.activity?.length ?? 0 : 0)
    + fields.reduce((n, f) => n + f.title.length + f.value.length, 0);
  return { kind: 'attachment', value, size };
}
