import {
  CausedBy, describeIssue, NotificationBody, notificationBodySchema, WebhookEventName,
} from '@app/contracts';

export type Reply =
  | { kind: 'none' }
  | { kind: 'notification'; notification: NotificationBody }
  | { kind: 'invalid'; problem: string };

const NONE: Reply = { kind: 'none' };

/** application/json, or a +json type (application/vnd.x+json), whatever its parameters. */
const isJsonType = (contentType: string): boolean => {
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
};

const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'a list' : `a ${typeof v}`);

/**
 * What a receiver's answer asks for. A 200 with a JSON object is a notification to post in
 * the room, read exactly as v2 send-room-notification reads its body (unknown fields dropped,
 * a problem names the field). 204, an empty body, another 2xx (with a body or not: the
 * specification posts 200s only), or a failure: nothing (a failure is the retry policy's). Anything else a 200 carries is an invalid reply,
 * recorded against the delivery and not posted. A body without a content type is read as JSON.
 */
export function parseReply(o: { status: number; contentType: string | undefined; body: string; truncated: boolean }): Reply {
  if (o.status !== 200) return NONE;
  if (o.body.trim() === '') return NONE;
  if (o.contentType !== undefined && o.contentType.trim() !== '' && !isJsonType(o.contentType)) {
    return { kind: 'invalid', problem: `The reply must be application/json to post a notification (got ${o.contentType.slice(0, 100)}).` };
  }
  if (o.truncated) return { kind: 'invalid', problem: 'The reply is longer than the dispatcher reads; it was not posted.' };
  let value: unknown;
  try {
    // A byte order mark is no JSON, but some servers write one.
    value = JSON.parse(o.body.replace(/^\uFEFF/, ''));
  } catch (err) {
    return { kind: 'invalid', problem: `The reply is not valid JSON: ${(err as Error).message.slice(0, 200)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { kind: 'invalid', problem: `The reply must be a JSON object (got ${kindOf(value)}).` };
  }
  const parsed = notificationBodySchema.safeParse(value);
  if (!parsed.success) return { kind: 'invalid', problem: `The reply is not a valid notification: ${describeIssue(parsed.error.issues[0])}` };
  return { kind: 'notification', notification: parsed.data };
}

/**
 * The `causedBy` of the notification a reply becomes: the webhook that replied, its delivery,
 * and one more than the depth of the notification that webhook received (a reply to any other
 * event is at depth 1). See MAX_REPLY_DEPTH.
 */
export function replyCausedBy(o: {
  webhookId: number;
  deliveryId: string;
  event: WebhookEventName;
  payload: any;
}): CausedBy {
  const depth = o.event === 'room_notification' && typeof o.payload?.causedBy?.depth === 'number' ? o.payload.causedBy.depth : 0;
  return { webhookId: o.webhookId, deliveryId: o.deliveryId, depth: depth + 1 };
}
