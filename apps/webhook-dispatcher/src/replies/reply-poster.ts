import { RpcCommandError, RpcFailure } from '@app/common';
import type { Context } from '@opentelemetry/api';
import {
  charLength, NotificationBody, notificationCommand, RequestOf, SendNotificationV1, WebhookRegistration,
} from '@app/contracts';

/** What `from` may hold (send-room-notification's rule). */
const FROM_MAX_CHARACTERS = 64;

/** The delivery a reply answers (a DeliveryJob): its room, its id and the depth its reply gets. */
export interface ReplyOrigin {
  roomId: number | null;
  deliveryId: string;
  replyDepth: number;
}

/**
 * The send-notification command a receiver's reply becomes: posted in the event's room under
 * its add-on's name, else the webhook's name (as the actor's label, and as `from` unless the
 * reply names one: ac-koa-hipchat names webhooks with a hash nobody should read), with
 * `causedBy` so that the notification is not delivered back to this webhook and reply chains
 * stop (MAX_REPLY_DEPTH).
 */
export function replyCommand(o: {
  job: ReplyOrigin;
  registration: WebhookRegistration;
  notification: NotificationBody;
}): RequestOf<typeof SendNotificationV1> | null {
  const { job, registration } = o;
  if (job.roomId === null) return null;
  const name = (registration.addonName ?? registration.name).trim();
  const from = o.notification.from ?? (name ? [...name].slice(0, FROM_MAX_CHARACTERS).join('') : undefined);
  return notificationCommand(
    { label: [...(name || 'webhook')].slice(0, 100).join(''), roomId: job.roomId },
    { id: job.roomId },
    { ...o.notification, ...(from !== undefined && charLength(from) > 0 ? { from } : {}) },
    { webhookId: registration.id, deliveryId: job.deliveryId, depth: job.replyDepth },
  );
}

export type ReplyResult = { messageId: string } | { error: string };

/** Sends a reply's notification to the rooms service; a refusal is an answer, not a throw. */
export class ReplyPoster {
  constructor(private readonly send: (command: RequestOf<typeof SendNotificationV1>, trace?: Context) => Promise<{ messageId: string }>) {}

  /** `trace`: the attempt that got the reply; the notification continues its trace. */
  async post(o: { job: ReplyOrigin; registration: WebhookRegistration; notification: NotificationBody; trace?: Context }): Promise<ReplyResult> {
    const command = replyCommand(o);
    if (!command) return { error: 'The event has no room to post the reply in.' };
    try {
      const { messageId } = await this.send(command, o.trace);
      return { messageId };
    } catch (err) {
      if (err instanceof RpcCommandError) {
        const { code, reason, field, detail } = err.error;
        // The refusal's own words, when it has them (a webhook whose creator lost the room, say).
        const why = typeof detail?.message === 'string' ? ` ${detail.message}` : '';
        return { error: `The rooms service refused the reply: ${code} (${reason}${field ? `, ${field}` : ''}).${why}` };
      }
      if (err instanceof RpcFailure) return { error: `The reply could not be posted: ${err.message}.` };
      throw err;
    }
  }
}
