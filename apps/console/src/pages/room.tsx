import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api, Session } from '../api';
import { ChatItem, chatItemOf, mergeItems, segmentsOf } from '../messages';
import { hrefOf } from '../routes';
import { attempt, Problem, Status, useInFlight, when } from '../ui';

interface Room {
  id: number;
  name: string;
  topic: string;
  privacy: string;
  is_archived: boolean;
  participants: Array<{ id: number; name: string; mention_name: string }>;
}

type Live = 'connecting' | 'live' | 'reconnecting' | 'unavailable';

/** How near the bottom (px) still counts as reading the newest messages. */
const FOLLOW_SLACK_PX = 40;

export function RoomPage({ roomId, session }: { roomId: number; session: Session }) {
  const [room, setRoom] = useState<Room | null>(null);
  const [items, setItems] = useState<ChatItem[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [live, setLive] = useState<Live>('connecting');
  const base = `/v2/room/${roomId}`;
  const list = useRef<HTMLOListElement>(null);
  // Whether the reader is at the newest message, as of their last scroll (before new items
  // change the list's height): only then does the list follow what arrives.
  const following = useRef(true);
  const newest = useRef<string | undefined>(undefined);
  const [unseen, setUnseen] = useState(false);

  const loadRoom = () => api<Room>('GET', base).then(setRoom, (err: Error) => setProblem(err.message));
  const loadHistory = () => api<{ items: Array<Record<string, unknown>> }>('GET', `${base}/history/latest?max-results=75`)
    .then((page) => setItems((list) => mergeItems(list, page.items.flatMap((m) => chatItemOf(m) ?? []))), (err: Error) => setProblem(err.message));

  useEffect(() => {
    void loadRoom();
    void loadHistory();
    // The live connection: each event as it happens, resumed by the browser from the last id after a drop.
    const source = new EventSource(`${base}/events`);
    const onItem = (e: MessageEvent) => {
      const item = parse(e.data);
      const message = item && typeof item.message === 'object' ? chatItemOf(item.message as Record<string, unknown>) : null;
      if (message) setItems((list) => mergeItems(list, [message]));
    };
    source.addEventListener('room_message', onItem);
    source.addEventListener('room_notification', onItem);
    source.addEventListener('room_file_upload', () => void loadHistory());
    source.addEventListener('room_topic_change', (e: MessageEvent) => {
      const topic = parse(e.data)?.topic;
      if (typeof topic === 'string') setRoom((r) => (r ? { ...r, topic } : r));
    });
    for (const name of ['room_enter', 'room_exit', 'room_archived', 'room_unarchived']) source.addEventListener(name, () => void loadRoom());
    source.addEventListener('room_deleted', () => setProblem('This room was deleted.'));
    source.onopen = () => setLive('live');
    source.onerror = () => setLive(source.readyState === EventSource.CLOSED ? 'unavailable' : 'reconnecting');
    return () => source.close();
  }, [roomId]);

  const toNewest = () => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  };
  const scrolled = () => {
    const el = list.current;
    if (!el) return;
    following.current = el.scrollHeight - el.scrollTop - el.clientHeight <= FOLLOW_SLACK_PX;
    if (following.current) setUnseen(false);
  };
  // Opens at the newest message and follows new ones; a reader scrolled up to older ones is
  // left where they are and offered a way down instead.
  useLayoutEffect(() => {
    const last = items[items.length - 1]?.id;
    if (last === newest.current) return;
    newest.current = last;
    if (following.current) toNewest();
    else setUnseen(true);
  }, [items]);

  return (
    <>
      <h1 tabIndex={-1}>{room ? room.name : 'Room'}</h1>
      <p class="room-links"><a href={hrefOf({ page: 'integrations', roomId })}>Integrations</a> <a href={hrefOf({ page: 'room-settings', roomId })}>Settings</a></p>
      <Problem text={problem} />
      {room && <Topic room={room} onChanged={(topic) => setRoom({ ...room, topic })} />}
      <div class="room">
        <section aria-labelledby="history-heading" class="history">
          <h2 id="history-heading">History</h2>
          <Status text={live === 'live' ? 'Live: new messages appear as they are sent.' : live === 'connecting' ? 'Connecting…' : live === 'reconnecting' ? 'Reconnecting…' : 'Live updates are unavailable; reload to try again.'} />
          {/* Focusable, so that it scrolls by keyboard too. An image that loads grows the list:
              still at the bottom then if the reader was. */}
          <ol class="messages" ref={list} tabIndex={0} aria-label="Room history" aria-live="polite" aria-relevant="additions"
            onScroll={scrolled} onLoadCapture={() => (following.current ? toNewest() : undefined)}>
            {items.map((item) => <Message key={item.id} item={item} me={session.user.mention_name} />)}
          </ol>
          {unseen && <button type="button" class="to-newest" onClick={toNewest}>New messages</button>}
          <Composer roomId={roomId} onSent={() => {
            // One's own message is always shown arriving, wherever the list was scrolled.
            following.current = true;
            if (live !== 'live') void loadHistory();
          }} />
        </section>
        <aside aria-labelledby="participants-heading">
          <h2 id="participants-heading">Participants</h2>
          {room && (room.participants.length === 0 ? <p>Nobody is in the room.</p> : (
            <ul>{room.participants.map((p) => <li key={p.id}>{p.name} <span class="muted">@{p.mention_name}</span></li>)}</ul>
          ))}
        </aside>
      </div>
    </>
  );
}

function parse(data: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(data);
    return value && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
}

function Message({ item, me }: { item: ChatItem; me: string }) {
  const mentions = new Set(item.mentions);
  return (
    <li class={`message${item.color ? ` notification ${item.color}` : ''}`}>
      <div class="meta"><span class="from">{item.from || 'Someone'}</span> <time dateTime={item.date}>{when(item.date)}</time></div>
      {item.format === 'html'
        // Only as the service's sanitizer stored it; the page's CSP runs no inline script besides.
        ? <div class="body" dangerouslySetInnerHTML={{ __html: item.message }} />
        : <div class="body">{segmentsOf(item.message, mentions, me).map((s, i) => (s.kind === 'text' ? s.text
          : s.kind === 'link' ? <a key={i} href={s.href} rel="noopener noreferrer nofollow" target="_blank">{s.text}</a>
            : <mark key={i} class={s.self ? 'mention me' : 'mention'}>{s.text}</mark>))}</div>}
      {item.card && (
        <div class="card">
          {item.card.thumbnail && <img src={item.card.thumbnail} alt="" width={48} height={48} />}
          <div>
            <p class="card-title">{item.card.url ? <a href={item.card.url} rel="noopener noreferrer nofollow" target="_blank">{item.card.title}</a> : item.card.title}</p>
            {item.card.description && <p>{item.card.description}</p>}
            {item.card.attributes.length > 0 && <dl>{item.card.attributes.map((a, i) => <div key={i}><dt>{a.label}</dt><dd>{a.value}</dd></div>)}</dl>}
          </div>
        </div>
      )}
      {item.file && (
        <p class="file">
          {item.file.thumbUrl && <img src={item.file.thumbUrl} alt={`Thumbnail of ${item.file.name}`} />}
          {item.file.url ? <a href={item.file.url}>{item.file.name}</a> : item.file.name}
        </p>
      )}
    </li>
  );
}

function Topic({ room, onChanged }: { room: Room; onChanged: (topic: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [topic, setTopic] = useState(room.topic);
  const [problem, setProblem] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => (editing ? field.current?.focus() : undefined), [editing]);

  const save = (e: Event) => {
    e.preventDefault();
    return attempt(setProblem, async () => {
      await api('PUT', `/v2/room/${room.id}/topic`, { topic });
      onChanged(topic);
      setEditing(false);
    });
  };
  if (!editing) {
    return <p class="topic"><span>Topic: {room.topic || <span class="muted">none</span>}</span> <button type="button" onClick={() => { setTopic(room.topic); setEditing(true); }}>Edit topic</button></p>;
  }
  return (
    <form class="inline" onSubmit={save}>
      <label for="topic">Topic</label>
      <input id="topic" ref={field} maxLength={250} value={topic} onInput={(e) => setTopic(e.currentTarget.value)} />
      <button type="submit">Save topic</button>
      <button type="button" onClick={() => setEditing(false)}>Cancel</button>
      <Problem text={problem} />
    </form>
  );
}

function Composer({ roomId, onSent }: { roomId: number; onSent: () => void }) {
  const [message, setMessage] = useState('');
  const [busy, whileSending] = useInFlight();
  const [problem, setProblem] = useState<string | null>(null);
  const send = (e: Event) => {
    e.preventDefault();
    if (!message.trim()) return;
    return whileSending(() => attempt(setProblem, async () => {
      await api('POST', `/v2/room/${roomId}/message`, { message });
      setMessage('');
      onSent();
    }));
  };
  return (
    <form class="composer" onSubmit={send}>
      <label for="message">Message</label>
      <input id="message" autocomplete="off" maxLength={10000} value={message} onInput={(e) => setMessage(e.currentTarget.value)} />
      <button type="submit" disabled={busy}>Send</button>
      <Problem text={problem} />
    </form>
  );
}
