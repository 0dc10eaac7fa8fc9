import { COLORS } from './colors';
import { clip, mergeTextAttachments, packPosts, textPieces, type Piece } from './pack';
import { discordDialect, lineLabel, renderDoc } from './render';
import { partText, splitText } from './split';
import type { BridgeCard, BridgeMessage, PlatformFormat, PlatformPost } from './types';

/**
 * Discord webhooks (https://discord.com/developers/docs/resources/webhook#execute-webhook):
 * `content` in Markdown, `username`, `embeds` with an integer `color`, and
 * `allowed_mentions: {parse: []}` so that no @everyone, role or user in a bridged text pings
 * anyone (https://discord.com/developers/docs/resources/message#allowed-mentions-object).
 *
 * Limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits):
 * content 2,000 characters; 10 embeds a post; title 256, description 4,096, field name 256,
 * value 1,024, 25 fields, footer 2,048; title, descriptions, field names and values and
 * footers of all embeds of a post 6,000 together.
 */
export const DISCORD_LIMITS = {
  content: 2_000, embeds: 10, total: 6_000, title: 256, description: 4_096,
  fieldName: 256, fieldValue: 1_024, fields: 25, footer: 2_048, username: 80,
} as const;

type Embed = Record<string, unknown>;

export const discord: PlatformFormat = (messages) =>
  packPosts(messages.map((m) => ({ username: discordUsername(m.sender), pieces: discordPieces(m), label: lineLabel(m.sender, discordDialect) })),
    { text: DISCORD_LIMITS.content, attachments: DISCORD_LIMITS.embeds, total: DISCORD_LIMITS.total, textInTotal: false },
    // One sender's run of same-coloured notifications is one embed (its description's lines).
    mergeTextAttachments(DISCORD_LIMITS.description, 'description'))
    .map((p): PlatformPost => ({
      method: 'POST',
      path: '',
      body: {
        ...(p.username ? { username: p.username } : {}),
        ...(p.text !== '' ? { content: p.text } : {}),
        ...(p.attachments.length > 0 ? { embeds: p.attachments } : {}),
        allowed_mentions: { parse: [] },
      },
    }));

/**
 * Discord refuses a webhook username containing "discord" or "clyde", or @ # : ```, or one
 * that is "everyone" or "here", and longer than 80
 * (https://discord.com/developers/docs/resources/user#usernames-and-nicknames): such a name
 * is shown with the forbidden part changed, never refused.
 */
export function discordUsername(name: string | null): string | null {
  if (name === null) return null;
  let s = name
    .replace(/discord/gi, (w) => `${w[0]}1${w.slice(2)}`)
    .replace(/clyde/gi, (w) => `${w.slice(0, 4)}3`)
    .replace(/```/g, "'''")
    .replace(/[@#:]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (/^(everyone|here)$/i.test(s)) s = `${s} (user)`;
  s = clip(s, DISCORD_LIMITS.username);
  return s === '' ? null : s;
}

function discordPieces(m: BridgeMessage): Array<Piece<Embed>> {
  const color = m.color ? COLORS[m.color].int : null;
  const pieces: Array<Piece<Embed>> = [];
  if (m.card) {
    pieces.push(...cardEmbeds(m.card, color));
  } else {
    const text = renderDoc(m.body, discordDialect);
    if (color !== null) {
      // A coloured notification is an embed, its text split over as many as it needs.
      for (const part of splitText(text, DISCORD_LIMITS.description).map(partText)) {
        pieces.push({ kind: 'attachment', value: { description: part, color }, size: part.length });
      }
    } else {
      pieces.push(...textPieces<Embed>(splitText(text, DISCORD_LIMITS.content).map(partText)));
    }
  }
  if (m.file?.imageUrl) {
    const title = clip(m.file.name, DISCORD_LIMITS.title);
    pieces.push({ kind: 'attachment', value: { title, url: m.file.url, image: { url: m.file.imageUrl } }, size: title.length });
  }
  return pieces;
}

function cardEmbeds(card: BridgeCard, color: number | null): Array<Piece<Embed>> {
  const title = clip(card.title, DISCORD_LIMITS.title);
  // A title longer than Discord's is shown whole at the top of the description.
  const description = [title === card.title ? '' : discordDialect.bold(discordDialect.escape(card.title)),
    card.description ? renderDoc(card.description, discordDialect) : ''].filter((s) => s !== '').join('\n\n');
  const fields = card.attributes.slice(0, DISCORD_LIMITS.fields).map((a) => {
    const linked = a.url ? discordDialect.link(a.url, a.value) : discordDialect.escape(a.value);
    return {
      // A field must have a name: a zero-width space where the attribute has no label.
      name: clip(a.label, DISCORD_LIMITS.fieldName) || '\u200b',
      value: linked.length <= DISCORD_LIMITS.fieldValue ? linked : clip(discordDialect.escape(a.value), DISCORD_LIMITS.fieldValue),
      inline: true,
    };
  });
  const footer = card.activity ? clip(card.activity, DISCORD_LIMITS.footer) : '';
  const parts = splitText(description, DISCORD_LIMITS.description).map(partText);
  const fieldsSize = fields.reduce((n, f) => n + f.name.length + f.value.length, 0);
  return parts.map((part, i) => {
    const first = i === 0;
    const last = i === parts.length - 1;
    // A card's description that needs more than one embed continues in embeds of its colour.
    const value: Embed = {
      ...(first ? { title } : {}),
      ...(first && card.url ? { url: card.url } : {}),
      ...(part !== '' ? { description: part } : {}),
      ...(color !== null ? { color } : {}),
      ...(last && fields.length > 0 ? { fields } : {}),
      ...(first && card.thumbnail ? (card.style === 'image' ? { image: { url: card.thumbnail } } : { thumbnail: { url: card.thumbnail } }) : {}),
      ...(last && footer ? { footer: { text: footer, ...(card.icon ? { icon_url: card.icon } : {}) } } : {}),
    };
    return { kind: 'attachment', value, size: (first ? title.length : 0) + part.length + (last ? fieldsSize + footer.length : 0) };
  });
}
