import sanitizeHtml from 'sanitize-html';

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
