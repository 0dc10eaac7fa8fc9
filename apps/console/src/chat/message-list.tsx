import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ChatItem, continuesGroup, Emoticons, fileNameOf, initialsOf, Preview, segmentsOf } from '../messages';
import { when } from '../ui';

/** How near the bottom (px) still counts as reading the newest messages. */
const FOLLOW_SLACK_PX = 40;

const EXTERNAL = { rel: 'noopener noreferrer nofollow', target: '_blank' } as const;

/**
 * A chat's history, oldest first: one header (initials, name, time) per run of one sender's
 * messages within a minute, notifications and cards in their colour, emoticons as images,
 * link previews. It opens at the newest message and follows new ones; a reader scrolled up to
 * older ones is left there and offered a way down. `onBottom` hears whether the reader is at
 * the newest message (what marks a chat read); a change of `follow` brings the list down to
 * the next item (one's own message is always shown arriving).
 */
export function MessageList({ items, me, emoticons, label, follow, onBottom }: {
  items: ChatItem[]; me: string; emoticons: Emoticons; label: string; follow: number; onBottom: (atBottom: boolean) => void;
}) {
  const list = useRef<HTMLOListElement>(null);
  // Whether the reader is at the newest message, as of their last scroll (before new items
  // change the list's height): only then does the list follow what arrives.
  const following = useRef(true);
  const newest = useRef<string | undefined>(undefined);
  const [unseen, setUnseen] = useState(false);

  const toNewest = () => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  };
  const scrolled = () => {
    const el = list.current;
    if (!el) return;
    following.current = el.scrollHeight - el.scrollTop - el.clientHeight <= FOLLOW_SLACK_PX;
    if (following.current) setUnseen(false);
    onBottom(following.current);
  };
  useEffect(() => {
    if (follow) following.current = true;
  }, [follow]);
  useLayoutEffect(() => {
    const last = items[items.length - 1]?.id;
    if (last === newest.current) return;
    newest.current = last;
    if (following.current) {
      toNewest();
      onBottom(true);
    } else setUnseen(true);
  }, [items]);

  return (
    <>
      {/* Focusable, so that it scrolls by keyboard too. An image that loads grows the list:
          still at the bottom then if the reader was. */}
      <ol class="messages" ref={list} tabIndex={0} aria-label={label} aria-live="polite" aria-relevant="additions"
        onScroll={scrolled} onLoadCapture={() => (following.current ? toNewest() : undefined)}>
        {items.map((item, i) => <Message key={item.id} item={item} continued={continuesGroup(items[i - 1], item)} me={me} emoticons={emoticons} />)}
      </ol>
      {unseen && <button type="button" class="to-newest" onClick={toNewest}>New messages</button>}
    </>
  );
}

const timeOf = (date: string): string => {
  const d = new Date(date);
  return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
};

/**
 * The sanitized HTML of a message, with a text alternative on every image that has none (the
 * sanitizer keeps <img> as it was written): its file name. Parsed in an inert template, so
 * nothing loads or runs here.
 */
function withAltTexts(html: string): string {
  if (!/<img/i.test(html)) return html;
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const img of Array.from(template.content.querySelectorAll('img'))) {
    if (img.hasAttribute('alt')) continue;
    const name = fileNameOf(img.getAttribute('src') ?? '');
    img.setAttribute('alt', name ? `Image: ${name}` : 'Image');
  }
  return template.innerHTML;
}

function Message({ item, continued, me, emoticons }: { item: ChatItem; continued: boolean; me: string; emoticons: Emoticons }) {
  const mentions = useMemo(() => new Set(item.mentions), [item]);
  const html = useMemo(() => (item.format === 'html' ? withAltTexts(item.message) : ''), [item]);
  const from = item.from || 'Someone';
  const classes = ['message', continued ? 'continued' : 'first', item.color ? `notification ${item.color}` : ''].filter(Boolean).join(' ');
  return (
    <li class={classes}>
      {/* The name is in the text beside it: the initials are decoration. */}
      {!continued && <span class={`avatar${item.color ? ' bot' : ''}`} aria-hidden="true">{initialsOf(from)}</span>}
      <div class="content">
        {continued
          ? <span class="visually-hidden">{from}, <time dateTime={item.date}>{when(item.date)}</time>: </span>
          : <div class="meta"><span class="from">{from}</span> <time dateTime={item.date} title={when(item.date)}>{timeOf(item.date)}</time></div>}
        {item.format === 'html'
          // Only as the service's sanitizer stored it; the page's CSP runs no inline script besides.
          ? <div class="body" dangerouslySetInnerHTML={{ __html: html }} />
          : <div class="body">{segmentsOf(item.message, mentions, me, emoticons).map((s, i) => (s.kind === 'text' ? s.text
            : s.kind === 'link' ? <a key={i} href={s.href} {...EXTERNAL}>{s.text}</a>
              : s.kind === 'emoticon' ? <img key={i} class="emoticon" src={s.src} alt={s.text} />
                : <mark key={i} class={s.self ? 'mention me' : 'mention'}>{s.text}</mark>))}</div>}
        {item.card && (
          <div class="card">
            {item.card.thumbnail && <img src={item.card.thumbnail} alt={`Thumbnail: ${item.card.title || 'card'}`} width={48} height={48} />}
            <div>
              <p class="card-title">{item.card.url ? <a href={item.card.url} {...EXTERNAL}>{item.card.title}</a> : item.card.title}</p>
              {item.card.description && <p>{item.card.description}</p>}
              {item.card.attributes.length > 0 && <dl>{item.card.attributes.map((a, i) => <div key={i}><dt>{a.label}</dt><dd>{a.value}</dd></div>)}</dl>}
            </div>
          </div>
        )}
        {item.file && (
          <p class="file">
            {item.file.thumbUrl && <img src={item.file.thumbUrl} alt={`Thumbnail of ${item.file.name}`} />}
            {item.file.url ? <a href={item.file.url}>{item.file.name}</a> : item.file.name}
            {item.file.size !== null && <span class="muted"> ({sizeOf(item.file.size)})</span>}
          </p>
        )}
        {item.previews.map((p) => <LinkPreview key={p.href} preview={p} />)}
      </div>
    </li>
  );
}

export function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 102.4) / 10} KB`;
  return `${Math.round(bytes / (1024 * 102.4)) / 10} MB`;
}

function LinkPreview({ preview }: { preview: Preview }) {
  switch (preview.kind) {
    case 'image':
      return <a class="preview image" href={preview.href} {...EXTERNAL}><img src={preview.src} alt={preview.alt} loading="lazy" /></a>;
    case 'video':
      return (
        <div class="preview video">
          {preview.thumbnail && <img src={preview.thumbnail} alt="" width={96} height={54} loading="lazy" />}
          <div><a href={preview.href} {...EXTERNAL}>Video: {preview.title}</a>{preview.author && <span class="muted"> by {preview.author}</span>}</div>
        </div>
      );
    case 'link':
      return (
        <div class="preview link">
          <a href={preview.href} {...EXTERNAL}>{preview.title}</a>
          {preview.site && <span class="muted"> {preview.site}</span>}
          {preview.description && <p>{preview.description}</p>}
        </div>
      );
  }
}
