import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import {
  commandFailure, extractMessageLink, MessageObject, ReplyOf, RequestOf, RoomMessageSentV2, SendMessageV1,
} from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { PresentationContext, toRoomObject, toUserObject } from '../../shared/presentation';
import { extractMentionNames, messageBody } from '../message-rules';
import { RoomPost } from '../room-post';
import { PRESENTATION } from '../../shared/infrastructure.module';

/**
 * A user's message, sent as the actor's user: plain text whose @mentions resolve to users
 * and whose last link is extracted (no metadata is fetched). Group-committed like
 * notifications (see SendNotification).
 */
@Injectable()
export class SendMessage {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly post: RoomPost,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  execute(cmd: RequestOf<typeof SendMessageV1>, meta: CommandMeta): Promise<ReplyOf<typeof SendMessageV1>> {
    // Refusals before the first write (batch contract).
    if (cmd.actor.userId === undefined) {
      return Promise.reject(commandFailure('forbidden', 'not_allowed', 'actor', {
        message: 'Messages are sent as a user: this token has none. Use a personal token, or send a notification.',
      }));
    }
    let text: string;
    try {
      text = messageBody(cmd.message, 'text'); // the rule every post into a room has: not blank
    } catch (err) {
      return Promise.reject(err);
    }
    const mentionNames = extractMentionNames(text);
    const link = extractMessageLink(text);

    return this.uow.apply(meta, async (tx) => {
      const { room, user } = await this.post.open(tx, cmd.room, cmd.actor);
      const sender = user!;
      const links = link ? [{ type: link.type, url: link.url }] : null;
      const { message, mentioned } = await this.post.store(tx, room, {
        type: 'message', fromLabel: sender.name, userId: sender.id, body: text, messageFormat: 'text', color: null, notify: false, messageLinks: links,
      }, mentionNames);
      const item: MessageObject = {
        date: message.createdAt.toISOString(),
        from: toUserObject(sender, this.ctx),
        id: message.id,
        mentions: mentioned.map((u) => toUserObject(u, this.ctx)),
        message: text,
        ...(links ? { message_links: links } : {}),
        type: 'message',
      };
      this.post.announce(tx, message, RoomMessageSentV2, { room: toRoomObject(room, this.ctx), message: item });
      return { id: message.id, date: item.date };
    }, { batch: true });
  }
}
