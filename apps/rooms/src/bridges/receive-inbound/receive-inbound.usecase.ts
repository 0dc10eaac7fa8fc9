import { Inject, Injectable } from '@nestjs/common';
import type { CommandMeta } from '@app/common';
import {
  commandFailure, extractMessageLink, MessageObject, ReceiveBridgeInboundV1, ReplyOf, RequestOf, RoomMessageSentV2,
} from '@app/contracts';
import { UnitOfWork } from '../../outbox/unit-of-work';
import { extractMentionNames } from '../../rooms/message-rules';
import { RoomPost } from '../../rooms/room-post';
import { PRESENTATION } from '../../shared/infrastructure.module';
import { PresentationContext, toRoomObject, toUserObject } from '../../shared/presentation';
import { BridgeRepository, StoredBridge } from '../bridge.repository';
import { INBOUND_KINDS } from '../bridge-rules';
import { BridgeSecrets } from '../bridge-secrets';
import { inboundFrom, inboundPost, readInboundFields } from '../inbound/inbound-post';
import { inboundVerificationProblem } from '../inbound/inbound-verify';

/** How long what a room sent out through its bridges counts as its own if it comes back in (a ring's round trip takes seconds). */
export const ECHO_WINDOW_SECONDS = 60;

/** One answer for an unknown key, a disabled bridge and a disabled inbound: keys cannot be probed. */
const notFound = () => commandFailure('not_found', 'inbound_not_found', 'key');

const takesInbound = (b: StoredBridge | null): b is StoredBridge =>
  b !== null && b.enabled && b.inbound.enabled && INBOUND_KINDS.includes(b.kind);

/**
 * What a person wrote in a bridged channel, posted in the bridge's room as a room_message
 * from "Grace Hopper (Mattermost)": verified with the bridge's token or Teams' HMAC (401,
 * nothing stored, without them), bots' and webhooks' posts and echoes of the room's own
 * messages ignored (a ring of bridges cannot loop), the message rules applied (400). The
 * event carries `origin.bridgeId`, so the dispatcher never sends it back out through the
 * bridge it came in by; every other webhook, add-on and bridge of the room gets it.
 */
@Injectable()
export class ReceiveBridgeInbound {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly bridges: BridgeRepository,
    private readonly secrets: BridgeSecrets,
    private readonly post: RoomPost,
    @Inject(PRESENTATION) private readonly ctx: PresentationContext,
  ) {}

  execute(cmd: RequestOf<typeof ReceiveBridgeInboundV1>, meta: CommandMeta): Promise<ReplyOf<typeof ReceiveBridgeInboundV1>> {
    const raw = Buffer.from(cmd.body, 'base64');
    // Group-committed as a user's message is: every refusal comes before the first write (batch contract).
    return this.uow.apply(meta, async (tx) => {
      const bridge = await this.bridges.findByInboundKey(tx.manager, cmd.key);
      if (!takesInbound(bridge)) throw notFound();
      const fields = readInboundFields(cmd.contentType, raw);
      const problem = inboundVerificationProblem({
        token: this.secrets.openInbound(bridge.id, 'token', bridge.inbound.token),
        hmacSecret: this.secrets.openInbound(bridge.id, 'hmac_secret', bridge.inbound.hmacSecret),
      }, fields, raw, cmd.authorization);
      if (problem) throw commandFailure('forbidden', 'inbound_unverified', 'authorization', { problem });

      const post = inboundPost(bridge.kind, fields);
      if (post.ignored !== null) return { kind: bridge.kind, outcome: 'ignored' as const };
      const from = inboundFrom(post);
      if (await this.bridges.sentOutRecently(tx.manager, bridge.roomId, post.text, from, ECHO_WINDOW_SECONDS)) {
        return { kind: bridge.kind, outcome: 'ignored' as const };
      }

      const room = await this.post.openForBridge(tx, bridge.roomId);
      const link = extractMessageLink(post.text);
      const links = link ? [{ type: link.type, url: link.url }] : null;
      const { message, mentioned } = await this.post.store(tx, room, {
        type: 'message', fromLabel: from, userId: null, body: post.text, messageFormat: 'text', color: null, notify: false, messageLinks: links,
      }, extractMentionNames(post.text));
      // HipChat's `from` of a message an integration sent: a string, as history shows it.
      const item: MessageObject = {
        date: message.createdAt.toISOString(),
        from,
        id: message.id,
        mentions: mentioned.map((u) => toUserObject(u, this.ctx)),
        message: post.text,
        ...(links ? { message_links: links } : {}),
        type: 'message',
      };
      this.post.announce(tx, message, RoomMessageSentV2, { room: toRoomObject(room, this.ctx), message: item, origin: { bridgeId: bridge.id } });
      return { kind: bridge.kind, outcome: 'posted' as const, id: message.id };
    }, { batch: true });
  }
}
