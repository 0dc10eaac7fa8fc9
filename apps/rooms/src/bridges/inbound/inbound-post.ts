import sanitizeHtml from 'sanitize-html';
import { BRIDGE_PLATFORM_NAMES, BridgeKind, commandFailure, field, problemOf } from '@app/contracts';

/**
 * What a platform's outgoing webhook sent, read as the room will show it. Two shapes reach
 * an inbound URL:
 * - Slack-style outgoing webhooks (Slack's legacy ones, Mattermost, Rocket.Chat), form or
 *   JSON: `token`, `text`, `user_name`, `user_id`, `channel_name`, `trigger_word`, ...;
 *   Slack marks bots with `bot_id` or `subtype: bot_message`, Rocket.Chat with `bot`.
 *   https://api.slack.com/legacy/custom-integrations/outgoing-webhooks,
 *   https://developers.mattermost.com/integrate/webhooks/outgoing/,
 *   https://docs.rocket.chat/use-rocket.chat/workspace-administration/integrations
 * - Teams' outgoing webhooks: a Bot Framework activity in JSON (`type: message`, `text` as
 *   HTML with the webhook's `<at>` mention, `from: {id, name}`).
 *   https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-outgoing-webhook
 */
export interface InboundPost {
  platform: BridgeKind;
  /** Who wrote it, as the platform names them. */
  person: string;
  /** The text as the room stores it (message_format text). */
  text: string;
  /** Why it is not posted (a bot's or webhook's post, an edit, nothing to show), or null. */
  ignored: string | null;
}

export type InboundFields = Record<string, unknown>;

/** The longest person's name kept in `from` (the platforms' own limits are shorter: Slack 80, Mattermost 64). */
export const INBOUND_PERSON_MAX = 64;

const invalid = (fieldName: string, problem: string) => commandFailure('invalid', 'rule', fieldName, { problem });

const mediaType = (contentType: string): string => contentType.split(';')[0].trim().toLowerCase();

/**
 * The body's fields, or null when the body is not a form or a JSON object: read before
 * anything else because the Slack-style token is one of them, and a request that cannot
 * show it is refused as unverified, not told what was wrong with its body.
 */
export function readInboundFields(contentType: string, raw: Buffer): InboundFields | null {
  const type = mediaType(contentType);
  const body = raw.toString('utf8');
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(body));
  if (type === 'application/json' || type === '' || type.endsWith('+json')) {
    try {
      const value: unknown = JSON.parse(body);
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as InboundFields : null;
    } catch {
      return null;
    }
  }
  return null;
}

const truthy = (v: unknown): boolean => v === true || (typeof v === 'string' && ['true', '1'].includes(v.toLowerCase())) || (typeof v === 'object' && v !== null);

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A name fit for `from`: one line, no control characters, storable (an unpaired surrogate,
 * which JSON can escape but PostgreSQL cannot keep, becomes U+FFFD), trimmed, at most
 * INBOUND_PERSON_MAX characters. Whatever a platform sends as a name is shown, never refused.
 */
export function personName(raw: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  const clean = (raw ?? '').replace(LONE_SURROGATE, '\uFFFD').replace(/[\u0000-\u001F\u007F]+/g, ' ').trim();
  const name = [...clean].slice(0, INBOUND_PERSON_MAX).join('').trim();
  return name || 'someone';
}

/** `from` of the room_message: the person and the platform, "Grace Hopper (Mattermost)". */
export const inboundFrom = (post: Pick<InboundPost, 'person' | 'platform'>): string => `${post.person} (${BRIDGE_PLATFORM_NAMES[post.platform]})`;

/**
 * Slack escapes exactly `&`, `<` and `>` in what it sends (https://api.slack.com/reference/surfaces/formatting#escaping);
 * the others send text as typed.
 */
const slackUnescape = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The `<at>` mentions that call the outgoing webhook itself (how Teams is told to send the
 * message, not part of it): those of the activity's mention entities that name a bot
 * (Bot Framework ids of bots begin `28:`, of people `29:`); without entities, the first
 * mention. People mentioned keep their names in the text.
 */
function webhookMentions(html: string, entities: unknown): string[] {
  const bots = Array.isArray(entities)
    ? entities.flatMap((e) => {
      const m = e as { type?: unknown; text?: unknown; mentioned?: { id?: unknown } };
      return m?.type === 'mention' && typeof m.text === 'string' && typeof m.mentioned?.id === 'string' && m.mentioned.id.startsWith('28:') ? [m.text] : [];
    })
    : [];
  if (bots.length > 0) return bots;
  const first = /<at>.*?<\/at>/i.exec(html);
  return first ? [first[0]] : [];
}

/**
 * Teams' HTML as plain text: the webhook's own mention removed, line breaks kept, every
 * other tag dropped (their text kept) and entities decoded once. sanitize-html parses it
 * (the project's HTML parser); what it escapes on output (`&`, `<`, `>`) is given back.
 */
export function teamsText(html: string, entities?: unknown): string {
  let rest = html;
  for (const mention of webhookMentions(html, entities)) rest = rest.replace(new RegExp(escapeRegExp(mention)), '');
  const lines = rest.replace(/<br\s*\/?>/gi, '\n').replace(/<\/(p|div|li)>/gi, '\n');
  const text = sanitizeHtml(lines, { allowedTags: [], allowedAttributes: {}, nonTextTags: ['script', 'style'] });
  return slackUnescape(text).replace(/\u00A0/g, ' ').replace(/[ \t]+\n/g, '\n').replace(/[ \t]{2,}/g, ' ').trim();
}

/**
 * A Slack-style outgoing webhook's post (Slack, Mattermost, Rocket.Chat). Mattermost's
 * payload carries no mark of a post an incoming webhook made (its `from_webhook` prop is
 * not sent; `user_name` is the webhook owner's, whatever name the post shows): nothing here
 * can tell our own bridge's posts from a person's, and the room's echo guard
 * (BridgeRepository.sentOutRecently) is what stops them coming back.
 */
function slackStylePost(kind: BridgeKind, f: InboundFields): InboundPost {
  if (f.text === undefined) throw invalid('text', 'is required (the message the platform\'s outgoing webhook sends)');
  if (typeof f.text !== 'string') throw invalid('text', 'must be text');
  const text = kind === 'slack' ? slackUnescape(f.text) : f.text;
  const person = personName(str(f.user_name) ?? str(f.user_id));
  let ignored: string | null = null;
  if (f.bot_id !== undefined && f.bot_id !== '' && f.bot_id !== null) ignored = 'a bot\'s post (bot_id)';
  else if (f.subtype === 'bot_message') ignored = 'a bot\'s post (subtype bot_message)';
  else if (kind === 'rocketchat' && truthy(f.bot)) ignored = 'a bot\'s or integration\'s post (bot)';
  // Rocket.Chat sends an edited message again: posting it would show it twice.
  else if (kind === 'rocketchat' && truthy(f.isEdited)) ignored = 'an edit of a message already posted (isEdited)';
  else if (text.trim() === '') ignored = 'no text (a file or an empty post)';
  return { platform: kind, person, text, ignored };
}

/** A Teams outgoing webhook's activity. */
function teamsPost(f: InboundFields): InboundPost {
  const from = typeof f.from === 'object' && f.from !== null ? f.from as Record<string, unknown> : {};
  const person = personName(str(from.name) ?? str(from.id));
  if (f.type !== 'message') return { platform: 'teams', person, text: '', ignored: `an activity of type ${String(f.type).slice(0, 40)}, not a message` };
  if (f.text === undefined) throw invalid('text', 'is required (the activity\'s message)');
  if (typeof f.text !== 'string') throw invalid('text', 'must be text');
  const text = teamsText(f.text, f.entities);
  return { platform: 'teams', person, text, ignored: text === '' ? 'no text besides the mention' : null };
}

/**
 * The post in the fields of a verified request, or a 400 naming the field and the rule:
 * the message rules of any post into a room (at most 10,000 characters, storable text).
 */
export function inboundPost(kind: BridgeKind, fields: InboundFields | null): InboundPost {
  if (fields === null) throw invalid('body', 'must be a form (application/x-www-form-urlencoded) or a JSON object (application/json)');
  const post = kind === 'teams' ? teamsPost(fields) : slackStylePost(kind, fields);
  if (post.ignored === null) {
    const problem = problemOf(field.messageText, post.text);
    if (problem) throw invalid('text', problem);
  }
  return post;
}
