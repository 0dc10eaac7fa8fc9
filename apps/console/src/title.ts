/**
 * The tab's title: the page's own name, after the unread count when there is one ("(3) Ops – Chat"),
 * so a person sees from another tab that something new was said. Pages set the name; the sidebar
 * sets the count.
 */
let pageName = '';
let unread = 0;

export function titleOf(name: string, count: number): string {
  const base = name ? `${name} – Chat` : 'Chat';
  return count > 0 ? `(${count}) ${base}` : base;
}

function show(): void {
  document.title = titleOf(pageName, unread);
}

export function setPageName(name: string): void {
  pageName = name;
  show();
}

export function setUnreadTotal(count: number): void {
  unread = count;
  show();
}
