/**
 * Coalescing: consecutive messages into as few posts as a platform's limits allow, in
 * order (issue 35: a burst arrives as few posts, nothing dropped). One packer for every
 * format: `pack` fills groups of units in order; `packPosts` is its use by the platforms
 * whose post is a text above a list of attachments (Slack, Mattermost, Rocket.Chat, Discord).
 */

/**
 * Packs consecutive units into as few groups as fit, in order: a unit joins the current
 * group while `mayJoin` allows it and the group still fits, else opens the next. A unit that
 * fits nowhere alone is the caller's bug (it splits units beforehand), so it gets a group of
 * its own rather than being lost.
 */
export function pack<T>(units: readonly T[], fits: (group: readonly T[]) => boolean, mayJoin: (group: readonly T[], next: T) => boolean = () => true): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  for (const unit of units) {
    if (current.length > 0 && mayJoin(current, unit) && fits([...current, unit])) {
      current.push(unit);
      continue;
    }
    if (current.length > 0) groups.push(current);
    current = [unit];
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

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

/** A message as `packPosts` takes it: the username override it posts under, its pieces, and its sender's name as a line's label. */
export interface PackMessage<A> {
  username: string | null;
  pieces: ReadonlyArray<Piece<A>>;
  /** `*Ada*: ` in the platform's markup: what opens its line in a post shared with other senders. */
  label: string;
}

interface Unit<A> {
  username: string | null;
  piece: Piece<A>;
  label: string;
  /** The message is this one piece of text (no attachment, not cut): it may share a post with other senders' messages. */
  whole: boolean;
}

/**
 * A post shows its text above its attachments (embeds), so text that comes after an
 * attachment starts a new post. A post has one username override, so a change of sender
 * starts a new post too, except between messages that are each one piece of text (no
 * attachment, not cut): those share a post under the platform's own name for the webhook,
 * each message opening with its sender's name (`*Ada Lovelace*: text`). A burst of people's short messages is then a
 * few posts, not one per change of speaker, and every line still says who wrote it.
 */
export function packPosts<A>(messages: ReadonlyArray<PackMessage<A>>, limits: PackLimits, merge?: (a: A, b: A) => A | null): Array<Packed<A>> {
  const split: Array<Unit<A>> = messages.flatMap((m) => {
    const whole = m.pieces.length === 1 && m.pieces[0].kind === 'text';
    return m.pieces.map((piece) => ({ username: m.username, piece, label: m.label, whole }));
  });
  const units = merge ? mergeRuns(split, merge) : split;
  const oneSender = (g: ReadonlyArray<Unit<A>>) => g.every((u) => u.username === g[0].username);
  const groups = pack(
    units,
    (g) => {
      const p = post(g);
      const attachmentsSize = g.reduce((n, u) => n + (u.piece.kind === 'attachment' ? u.piece.size : 0), 0);
      return p.text.length <= limits.text && p.attachments.length <= limits.attachments
        && (limits.textInTotal ? p.text.length : 0) + attachmentsSize <= limits.total;
    },
    (g, next) => (g[0].username === next.username && oneSender(g)
      ? !(next.piece.kind === 'text' && g.some((u) => u.piece.kind === 'attachment'))
      : next.whole && g.every((u) => u.whole)),
  );
  return groups.map(post);

  function post(g: ReadonlyArray<Unit<A>>): Packed<A> {
    const shared = !oneSender(g);
    let text = '';
    const attachments: A[] = [];
    for (const u of g) {
      if (u.piece.kind === 'attachment') attachments.push(u.piece.value);
      else text += (text === '' ? '' : u.piece.sep) + (shared ? labelled(u.label, u.piece.text) : u.piece.text);
    }
    return { username: shared ? null : g[0].username, text, attachments };
  }
}

/**
 * Consecutive attachments of one sender that `merge` can make one (the same colour, plain
 * text: a burst of an integration's coloured notifications) become one: a platform caps the
 * attachments of a post (Slack recommends 20), and a burst of 50 a second would otherwise
 * cost a post per 20 of them against a budget of one post a second.
 */
function mergeRuns<A>(units: ReadonlyArray<Unit<A>>, merge: (a: A, b: A) => A | null): Array<Unit<A>> {
  const out: Array<Unit<A>> = [];
  for (const u of units) {
    const last = out[out.length - 1];
    if (last && last.username === u.username && last.piece.kind === 'attachment' && u.piece.kind === 'attachment') {
      const merged = merge(last.piece.value, u.piece.value);
      if (merged !== null) {
        out[out.length - 1] = { ...last, whole: false, piece: { kind: 'attachment', value: merged, size: last.piece.size + u.piece.size } };
        continue;
      }
    }
    out.push(u);
  }
  return out;
}

/**
 * `merge` for attachments that are a colour and a text (Slack's, Mattermost's and
 * Rocket.Chat's coloured notifications, `text`; Discord's embeds, `description`): one
 * attachment, the texts as lines, while the text stays within `maxText` characters;
 * anything else (a card, an image, other colours) stays apart.
 */
export function mergeTextAttachments(maxText: number, field: 'text' | 'description' = 'text') {
  const PLAIN = new Set(['color', 'fallback', 'mrkdwn_in', field]);
  const plain = (a: Record<string, unknown>) => Object.keys(a).every((k) => PLAIN.has(k)) && typeof a[field] === 'string';
  return <A extends Record<string, unknown>>(a: A, b: A): A | null => {
    if (!plain(a) || !plain(b) || a.color !== b.color) return null;
    const text = `${a[field] as string}\n${b[field] as string}`;
    return text.length <= maxText ? { ...a, [field]: text } : null;
  };
}

/** A sender's name before a message's text; before a code block, list or table, on a line of its own, where Markdown still reads the block. */
const labelled = (label: string, text: string): string =>
  (label === '' ? text : /^(```|[-*+•] |\d+\. |\|)/.test(text) ? `${label.trimEnd()}\n${text}` : label + text);

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
