import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';

export type V1Format = 'json' | 'xml';

export interface Rendered {
  contentType: string;
  body: string;
}

/** Element names of array items: the singular of the array's key. */
const ITEM_NAMES: Record<string, string> = {
  rooms: 'room',
  users: 'user',
  messages: 'message',
  member_user_ids: 'member_user_id',
  participants: 'participant',
  mentions: 'mention',
};

export function itemName(arrayKey: string): string {
  return ITEM_NAMES[arrayKey] ?? (arrayKey.endsWith('s') ? arrayKey.slice(0, -1) : 'item');
}

/** Characters XML 1.0 forbids (C0 controls but tab, LF, CR; lone surrogates; U+FFFE/U+FFFF). */
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as XML 1.0 can carry it: forbidden characters become U+FFFD (escaping is xmlbuilder2's). */
export function xmlText(value: string): string {
  return value.replace(NOT_XML_CHAR, '\uFFFD');
}

function append(parent: XMLBuilder, key: string, value: unknown): void {
  if (Array.isArray(value)) {
    const list = parent.ele(key);
    for (const item of value) append(list, itemName(key), item);
    return;
  }
  const el = parent.ele(key);
  if (value === null || value === undefined) return;
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) append(el, k, v);
    return;
  }
  el.txt(xmlText(String(value)));
}

/**
 * XML mirrors the JSON: the root element is the JSON's top-level key, array items are
 * singular child elements, booleans are true/false, null is an empty element.
 */
export function toXml(body: Record<string, unknown>): string {
  const keys = Object.keys(body);
  if (keys.length !== 1) throw new Error('XML rendering needs exactly one top-level key');
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const [root] = keys;
  const value = body[root];
  if (Array.isArray(value)) {
    const el = doc.ele(root);
    for (const item of value) append(el, itemName(root), item);
  } else if (value !== null && typeof value === 'object') {
    const el = doc.ele(root);
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) append(el, k, v);
  } else {
    const el = doc.ele(root);
    if (value !== null && value !== undefined) el.txt(xmlText(String(value)));
  }
  return doc.end({ prettyPrint: false });
}

export function render(format: V1Format, body: Record<string, unknown>): Rendered {
  if (format === 'xml') return { contentType: 'text/xml; charset=utf-8', body: toXml(body) };
  return { contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}

/** The format asked for; null when the value is not one we serve. */
export function parseFormat(raw: unknown): V1Format | null {
  if (raw === undefined || raw === '' || raw === null) return 'json';
  // Any case, as flags are read (compatibility.md is silent on format's case): XML is xml.
  const format = typeof raw === 'string' ? raw.toLowerCase() : raw;
  if (format === 'json' || format === 'xml') return format;
  return null;
}
