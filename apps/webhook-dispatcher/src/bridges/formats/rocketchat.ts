import { attachmentPieces, type Attachment } from './attachments';
import { mergeTextAttachments, packPosts } from './pack';
import { lineLabel, rocketchatDialect } from './render';
import type { PlatformFormat, PlatformPost } from './types';

/**
 * Rocket.Chat incoming webhooks (https://docs.rocket.chat/docs/integrations), read as
 * processWebhookMessage.ts reads them: `text`, `alias` (the name shown instead of the
 * webhook's user; a `username` would override it), and attachments as chat.postMessage
 * takes them (https://developer.rocket.chat/apidocs/post-message): hex `color`, `fields`,
 * `thumb_url`, `image_url`. A message is refused above Message_MaxAllowedSize, 5,000
 * characters by default; attachments are kept within it too.
 */
export const ROCKETCHAT_LIMITS = { text: 5_000, attachments: 20, total: 5_000, textInTotal: true };

export const rocketchat: PlatformFormat = (messages) =>
  packPosts(messages.map((m) => ({ username: m.sender, label: lineLabel(m.sender, rocketchatDialect), pieces: attachmentPieces(m, { dialect: rocketchatDialect, limit: ROCKETCHAT_LIMITS.text, footer: false }) })), ROCKETCHAT_LIMITS, mergeTextAttachments(4_000))
    .map((p): PlatformPost => ({
      method: 'POST',
      path: '',
      body: {
        ...(p.username ? { alias: p.username } : {}),
        ...(p.text !== '' ? { text: p.text } : {}),
        ...(p.attachments.length > 0 ? { attachments: p.attachments as Attachment[] } : {}),
      },
    }));
