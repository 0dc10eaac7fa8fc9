/**
 * The rules of a person's chats that are not SQL: how a private message is judged to mention
 * its reader (private messages keep no mention list, unlike room messages), and how a room
 * message mentions everyone.
 */

/** PostgreSQL regular-expression metacharacters, escaped in a mention name. */
const ARE_SPECIAL = /[\\^$.|?*+()[\]{}-]/g;

/** The characters a mention name is made of (extractMentionNames' rule), as a bracket expression's content. */
const NAME_CHARS = '[:alnum:]_.-';

/**
 * A PostgreSQL (ARE, matched case-insensitively with `~*`) pattern that finds `@mentionName`
 * in a text as extractMentionNames reads mentions: `@` at the start or after a character that
 * is neither a word character nor `@`, and the name not running on into more name characters
 * (trailing `.` and `-` are punctuation, dropped).
 */
export function privateMentionPattern(mentionName: string): string {
  const name = mentionName.replace(ARE_SPECIAL, (c) => `\\${c}`);
  return `(^|[^[:alnum:]_@])@${name}($|[^${NAME_CHARS}]|[.-]+($|[^${NAME_CHARS}]))`;
}

/**
 * `@all` in a room message or notification mentions everyone who may read the room (HipChat
 * notified them all); it names no user, so it is found in the text. `@here` does not count: it
 * meant the people present when it was said, which a reader counting later was not.
 */
export const MENTION_ALL_PATTERN = privateMentionPattern('all');
