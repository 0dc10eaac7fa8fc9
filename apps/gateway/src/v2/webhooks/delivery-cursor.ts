import { DeliveryPosition, deliveryField } from '@app/contracts';
import { z } from 'zod';

/**
 * The `after` of a delivery log's `links.next`: the last item's position (created_at to the
 * microsecond, id), opaque to clients, base64url so that it needs no escaping in a URL.
 * A client passes it back as given; it is not a promise of any format.
 */

/** The longest cursor read: a position is 86 characters; anything much longer is not one. */
const MAX_CURSOR = 200;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
const SEPARATOR = ' ';

export const CURSOR_RULE = 'must be a cursor as the list\'s links.next gives it';

export function encodeCursor(p: DeliveryPosition): string {
  return Buffer.from(`${p.createdAt}${SEPARATOR}${p.id}`, 'utf8').toString('base64url');
}

/** The position a cursor names; null when it is not one this gateway wrote (checked as the dispatcher will check it). */
export function decodeCursor(cursor: string): DeliveryPosition | null {
  if (cursor.length > MAX_CURSOR || !BASE64URL.test(cursor)) return null;
  const [createdAt, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split(SEPARATOR);
  if (rest.length > 0 || id === undefined) return null;
  const parsed = deliveryField.position.safeParse({ createdAt, id });
  return parsed.success ? { createdAt: parsed.data.createdAt, id: parsed.data.id.toLowerCase() } : null;
}

/** `after` as a query parameter: a cursor, read into its position, or a 400 naming it and its rule. */
export const cursorParam = z.string().transform((v, ctx): DeliveryPosition => {
  const position = decodeCursor(v);
  if (position === null) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${CURSOR_RULE} (got "${v.slice(0, 50)}")` });
    return z.NEVER;
  }
  return position;
});
