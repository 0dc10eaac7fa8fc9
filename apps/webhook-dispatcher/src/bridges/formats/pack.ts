/**
 * Coalescing: consecutive messages into as few posts as a platform's limits allow, in
 * order (issue 35: a burst arrives as few posts, nothing dropped). A post shows its text
 * above its attachments (embeds), so text that comes after an attachment starts a new post;
 * a post has one sender (the username override), so a change of sender does too.
 */
export type Piece<A> =
  | { kind: 'text'; text: string; /** What joins it to the text before it in the same post. */ sep: string }
  | { kind: 'attachment'; value: A; /** Characters it counts toward the post's total. */ size: number };

export interface PackLimits {
  /** Characters of a post's text (Slack `text`, Discord `content`). */
  text: number;
  /** Attachments (embeds) in one post. */
  attachments: number;
  /** Characters of a post's attachments, and of its text when `textInTotal`. */
  total: number;
  textInTotal: boolean;
}

export interface Packed<A> {
  username: string | null;
  text: string;
  attachments: A[];
}

export function pack<A>(messages: ReadonlyArray<{ username: string | null; pieces: ReadonlyArray<Piece<A>> }>, limits: PackLimits): Array<Packed<A>> {
  const posts: Array<Packed<A>> = [];
  let post: (Packed<A> & { size: number }) | null = null;
  const close = () => {
    if (post && (post.text !== '' || post.attachments.length > 0)) posts.push({ username: post.username, text: post.text, attachments: post.attachments });
    post = null;
  };
  for (const m of messages) {
    if (post && post.username !== m.username) close();
    for (const piece of m.pieces) {
      if (piece.kind === 'text') {
        const fits = (p: Packed<A> & { size: number }) => p.attachments.length === 0
          && p.text.length + piece.sep.length + piece.text.length <= limits.text
          && (!limits.textInTotal || p.size + piece.sep.length + piece.text.length <= limits.total);
        if (post && !fits(post)) close();
        if (!post) post = { username: m.username, text: '', attachments: [], size: 0 };
        const added = (post.text === '' ? '' : piece.sep) + piece.text;
        post.text += added;
        if (limits.textInTotal) post.size += added.length;
      } else {
        if (post && (post.attachments.length >= limits.attachments || post.size + piece.size > limits.total)) close();
        if (!post) post = { username: m.username, text: '', attachments: [], size: 0 };
        post.attachments.push(piece.value);
        post.size += piece.size;
      }
    }
  }
  close();
  return posts;
}

/** A message's text as pieces that each fit `limit`: the first joins the message before it on a new line. */
export function textPieces<A>(parts: readonly string[]): Array<Piece<A>> {
  return parts.filter((t) => t !== '').map((text, i) => ({ kind: 'text', text, sep: i === 0 ? '\n' : '' }));
}

/** A summary for clients that show no formatting (Slack's `fallback`): the first line, shortened. */
export function summary(text: string, max = 150): string {
  const line = text.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** At most `max` characters, with an ellipsis when cut (never inside a surrogate pair). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  if (/[\udc00-\udfff]/.test(text[end] ?? '')) end--;
  return `${text.slice(0, end)}…`;
}
