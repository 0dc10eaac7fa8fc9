import { attachmentPieces, type Attachment } from './attachments';
import { mergeTextAttachments, packPosts } from './pack';
import { lineLabel, mattermostDialect } from './render';
import type { PlatformFormat, PlatformPost } from './types';

/**
 * Mattermost incoming webhooks (https://developers.mattermost.com/integrate/webhooks/incoming/):
 * `text` in Markdown, `username` (shown when the server lets integrations override it),
 * Slack-shaped attachments with a hex colour. A post's message holds at most 16,383
 * characters (model.PostMessageMaxRunesV2); attachments count within it here too, so one
 * post never nears the server's size limits. 20 attachments a post, as Slack's format allows.
 */
export const MATTERMOST_LIMITS = { text: 16_383, attachments: 20, total: 16_383, textInTotal: true };

export const mattermost: PlatformFormat = (messages) =>
  packPosts(messages.map((m) => ({ username: m.sender, label: lineLabel(m.sender, mattermostDialect), pieces: attachmentPieces(m, { dialect: mattermostDialect, limit: MATTERMOST_LIMITS.text, footer: true }) })), MATTERMOST_LIMITS, mergeTextAttachments(4_000))
    .map((p): PlatformPost => ({
      method: 'POST',
      path: '',
      body: {
        ...(p.username ? { username: p.username } : {}),
        ...(p.text !== '' ? { text: p.text } : {}),
        ...(p.attachments.length > 0 ? { attachments: p.attachments as Attachment[] } : {}),
      },
    }));
