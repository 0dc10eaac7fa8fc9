import { COLORS } from './colors';
import { plainText } from './html';
import { clip, mergeTextAttachments, packPosts, summary, textPieces, type Piece } from './pack';
import { lineLabel, renderDoc, slackDialect } from './render';
import { partText, splitText } from './split';
import type { BridgeCard, BridgeMessage, PlatformFormat, PlatformPost } from './types';

/**
 * Slack incoming webhooks (https://api.slack.com/messaging/webhooks): `text` in mrkdwn
 * (https://api.slack.com/reference/surfaces/formatting), `username` (honoured by legacy
 * webhooks and apps with chat:write.customize), and legacy attachments for what has a
 * colour (https://api.slack.com/reference/messaging/attachments): the colour bar is only
 * there. Attachments rather than blocks, so the 50-block limit is never reached.
 *
 * Limits: text is truncated after 40,000 characters
 * (https://api.slack.com/methods/chat.postMessage#truncating); "no more than 20
 * attachments" per message (https://api.slack.com/reference/messaging/attachments). We keep
 * the text and the attachments together within 40,000.
 */
export const SLACK_LIMITS = { text: 40_000, attachments: 20, total: 40_000, textInTotal: true };

type Attachment = Record<string, unknown>;

/**
 * How long a run of one sender's same-coloured notifications may grow as one attachment:
 * Slack folds a long attachment behind "Show more", so a burst stays readable.
 */
const SLACK_ATTACHMENT_TEXT = 4_000;

export const slack: PlatformFormat = (messages) =>
  packPosts(messages.map((m) => ({ username: m.sender, pieces: slackPieces(m), label: lineLabel(m.sender, slackDialect) })), SLACK_LIMITS, mergeTextAttachments(SLACK_ATTACHMENT_TEXT)).map((p): PlatformPost => ({
    method: 'POST',
    path: '',
    body: {
      ...(p.username ? { username: p.username } : {}),
      ...(p.text !== '' ? { text: p.text } : {}),
      ...(p.attachments.length > 0 ? { attachments: p.attachments } : {}),
    },
  }));

function slackPieces(m: BridgeMessage): Array<Piece<Attachment>> {
  const color = m.color ? (COLORS[m.color].slack ?? COLORS[m.color].hex) : null;
  const pieces: Array<Piece<Attachment>> = [];
  if (m.card) {
    pieces.push(cardAttachment(m.card, color, summary(plainText(m.body)) || m.card.title));
  } else {
    const text = renderDoc(m.body, slackDialect);
    if (color) {
      // A coloured notification is an attachment, its text split as a message's would be.
      for (const part of splitText(text, SLACK_LIMITS.total - 200).map(partText)) {
        const value = { color, fallback: slackDialect.escape(summary(plainText(m.body))), text: part, mrkdwn_in: ['text'] };
        pieces.push({ kind: 'attachment', value, size: part.length + String(value.fallback).length });
      }
    } else {
      pieces.push(...textPieces<Attachment>(splitText(text, SLACK_LIMITS.text).map(partText)));
    }
  }
  if (m.file?.imageUrl) {
    pieces.push({ kind: 'attachment', value: { fallback: slackDialect.escape(m.file.name), image_url: m.file.imageUrl }, size: m.file.name.length });
  }
  return pieces;
}

function cardAttachment(card: BridgeCard, color: string | null, fallback: string): Piece<Attachment> {
  const text = card.description ? renderDoc(card.description, slackDialect) : '';
  const fields = card.attributes.map((a) => ({
    title: slackDialect.escape(a.label),
    value: a.url ? slackDialect.link(a.url, a.value) : slackDialect.escape(a.value),
    short: true,
  }));
  const value: Attachment = {
    ...(color ? { color } : {}),
    fallback: slackDialect.escape(clip(fallback, 300)),
    title: slackDialect.escape(card.title),
    ...(card.url ? { title_link: card.url } : {}),
    ...(text ? { text } : {}),
    ...(fields.length > 0 ? { fields } : {}),
    // An image card shows its picture large; the others a thumbnail beside the text.
    ...(card.thumbnail ? (card.style === 'image' ? { image_url: card.thumbnail } : { thumb_url: card.thumbnail }) : {}),
    ...(card.activity ? { footer: slackDialect.escape(card.activity) } : {}),
    ...(card.icon ? { footer_icon: card.icon } : {}),
    mrkdwn_in: ['text', 'fields'],
  };
  const size = String(value.fallback).length + card.title.length + text.length + (card.activity?.length ?? 0)
    + fields.reduce((n, f) => n + f.title.length + f.value.length, 0);
  return { kind: 'attachment', value, size };
}

