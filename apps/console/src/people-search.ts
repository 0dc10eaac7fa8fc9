/** What People's search compares: a person's name, @mention name and e-mail address. */
export interface Searchable { name: string; mention_name: string; email?: string }

/**
 * Whether the person matches what was typed, in any case: "@ann" among @mention names only (as
 * people type a mention), anything else among names, mention names and e-mail addresses.
 * Everyone for nothing typed.
 */
export function matches(p: Searchable, query: string): boolean {
  const typed = query.trim().toLowerCase();
  if (typed.startsWith('@')) return p.mention_name.toLowerCase().includes(typed.slice(1));
  if (!typed) return true;
  return [p.name, p.mention_name, p.email ?? ''].some((v) => v.toLowerCase().includes(typed));
}
