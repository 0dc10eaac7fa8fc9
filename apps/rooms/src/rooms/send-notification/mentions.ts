/**
 * @mention names in a text message: `@` at the start or after a non-word character,
 * followed by letters, digits, `_`, `.` or `-` (trailing punctuation dropped).
 * Returns each name once, lower-cased, in order of appearance.
 */
export function extractMentionNames(text: string): string[] {
  const seen = new Set<string>();
  const re = /(^|[^\w@])@([\p{L}\p{N}_.-]+)/gu;
  for (const match of text.matchAll(re)) {
    const name = match[2].replace(/[.-]+$/, '').toLowerCase();
    if (name) seen.add(name);
  }
  return [...seen];
}
