import sanitizeHtml from 'sanitize-html';
import { commandFailure, MessageFormat } from '@app/contracts';

// The rules of a message's text, shared by every way of posting into a room (and by
// private messages): what HTML survives, and which @names it mentions.

/**
 * The tags rooms/message allows with message_format=html (a, b, i, strong, em, br, img,
 * pre, code, lists, tables); every other tag and attribute is removed. sanitize-html is a
 * maintained HTML parser-based sanitizer: regular expressions cannot do this safely.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['a', 'b', 'i', 'strong', 'em', 'br', 'img', 'pre', 'code', 'ul', 'ol', 'li',
    'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption'],
  allowedAttributes: {
    a: ['href', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Text of removed non-text elements (scripts, styles) goes with them.
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed'],
};

export function sanitizeMessageHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/**
 * The body a message is stored with (html sanitized), refused for what made it empty: a
 * message that is blank as sent is refused as blank, whatever its format (nothing was
 * removed); only html that is blank once disallowed HTML is removed says so.
 */
export function messageBody(message: string, format: MessageFormat): string {
  if (message.trim() === '') throw commandFailure('invalid', 'rule', 'message', { problem: 'must not be blank' });
  const body = format === 'html' ? sanitizeMessageHtml(message) : message;
  if (body.trim() === '') throw commandFailure('invalid', 'message_empty_after_sanitizing', 'message');
  return body;
}

/**
 * @mention names in a text message: `@` at the start or after a non-word character,
 * followed by letters, digits, `_`, `.` or `-` (trailing punctuation dropped).
 * Returns each name once, lower-cased, in order of appearance.
 */
export function extractMentionNames(text: string): string[] {
  const seen = new Set<string>();
  const re = /(^|[^\w@])@([\p{L}\p{N}_.-]+)/gu;
  for (const match of text.matchAll(re)) {
    const name = match[2].replace(/[.-]+$/, '').toLowerCase();
    if (name) seen.add(name);
  }
  return [...seen];
}
