/**
 * The sidebar: the person's rooms and private chats with their unread counts and mention marks,
 * kept live by the person's event stream, a way to start a private chat, and the switch for
 * browser notifications. Always shown on a wide screen; a drawer on a narrow one.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { allItems, api, Session } from './api';
import { ChatRef, onRead, openChat, sameChat } from './chat-events';
import { applyArrival, Arrival, arrivalOf, ChatEntry, countLabel, entriesOf, entryName, markRead, Me, notifies, reconcile, unreadTotal } from './chat-list';
import { hrefOf, parseRoute, Route } from './routes';
import { setUnreadTotal } from './title';

/** The events of the user stream that can be a new message. */
const MESSAGE_EVENTS = ['room_message', 'room_notification', 'room_file_upload', 'private_message'];
/** How long to wait before opening the stream again after it ended for good (the service restarting, say). */
const RECONNECT_MS = 3_000;

const hrefOfChat = (ref: ChatRef) => hrefOf(ref.type === 'room' ? { page: 'room', roomId: ref.id } : { page: 'chat', userId: ref.id });

/** The chat a route shows, if it shows one. */
export function chatOfRoute(route: Route): ChatRef | null {
  if (route.page === 'room') return { type: 'room', id: route.roomId };
  if (route.page === 'chat') return { type: 'user', id: route.userId };
  return null;
}

let closeStream: () => void = () => undefined;

/** Ends the live stream now (before signing out, so that it does not try again without a session). */
export function closeLiveChats(): void {
  closeStream();
}

/**
 * The person's chats, loaded from the API and moved by the live stream: (re)connecting reads the
 * list again (nothing missed while away); an event counts one more in its chat.
 */
function useChats(session: Session, route: Route, onArrival: (a: Arrival) => void, onTotal: (total: number) => void) {
  const [entries, setEntries] = useState<ChatEntry[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [live, setLive] = useState(false);
  const listed = useRef<ChatEntry[] | null>(null);
  listed.current = entries;
  const resync = useRef<() => void>(() => undefined);
  const routeChat = useRef<ChatRef | null>(chatOfRoute(route));
  routeChat.current = chatOfRoute(route);
  const arrived = useRef(onArrival);
  arrived.current = onArrival;
  const me: Me = { id: session.user.id, mentionName: session.user.mention_name };
  const base = `/v2/user/${session.user.id}`;

  useEffect(() => {
    let stopped = false;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const open = () => openChat() ?? routeChat.current;
    // The open chat's messages are read as they arrive: its count is none.
    const withOpenRead = (list: ChatEntry[]) => { const o = open(); return o ? markRead(list, o) : list; };
    // The arrivals during each read of the list in flight (see reconcile).
    let reading: Arrival[][] = [];
    // A 401 here is the session's end, which the API client tells the app (the sign-in form).
    const load = () => {
      const during: Arrival[] = [];
      reading.push(during);
      return api('GET', `${base}/chats`).then(
        (body) => { if (!stopped) { setEntries(withOpenRead(reconcile(entriesOf(body), during, open()))); setProblem(null); } },
        (err: Error) => { if (!stopped) setProblem(`Your chats could not be read: ${err.message}`); throw err; },
      ).finally(() => { reading = reading.filter((r) => r !== during); });
    };
    const connect = () => {
      if (stopped) return;
      source = new EventSource(`${base}/events`);
      source.onopen = () => {
        setLive(true);
        void load().catch(() => undefined);
      };
      for (const name of MESSAGE_EVENTS) {
        source.addEventListener(name, (e: MessageEvent) => {
          const arrival = arrivalOf(name, parse(e.data), me);
          if (!arrival) return;
          for (const during of reading) during.push(arrival);
          setEntries((list) => applyArrival(list ?? [], arrival, open()));
          arrived.current(arrival);
        });
      }
      // The stream ends with an `error` event that has data (the session ended, the client was
      // too slow), or the connection fails for good: the list is read again (which finds a
      // session's end) and the stream opened anew.
      source.addEventListener('error', (e: Event) => {
        const ended = e instanceof MessageEvent && typeof e.data === 'string' && e.data !== '';
        if (!stopped) setLive(false);
        if (!ended && source?.readyState !== EventSource.CLOSED) return;
        source?.close();
        load().then(() => { if (!stopped) retry = setTimeout(connect, ended ? RECONNECT_MS / 3 : RECONNECT_MS); }, () => {
          if (!stopped) retry = setTimeout(connect, RECONNECT_MS);
        });
      });
    };
    void load().catch(() => undefined);
    connect();
    // A room the person just made or opened for the first time is in their chats from now on,
    // but their stream carries it only from its next connection: connect again (which reads the list).
    resync.current = () => {
      if (stopped) return;
      clearTimeout(retry);
      source?.close();
      connect();
    };
    const unread = onRead((ref) => {
      if (ref.type === 'room' && listed.current && !listed.current.some((e) => sameChat(e, ref))) resync.current();
      setEntries((list) => list && markRead(list, ref));
    });
    const stop = () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
    closeStream = stop;
    return () => {
      stop();
      unread();
      setUnreadTotal(0);
    };
  }, [session.user.id]);

  // Opening a chat reads it; opening a room not listed yet (just created) lists it.
  const current = chatOfRoute(route);
  useEffect(() => {
    if (current) setEntries((list) => list && markRead(list, current));
    if (current?.type === 'room' && listed.current && !listed.current.some((e) => sameChat(e, current))) resync.current();
  }, [current?.type, current?.id]);

  useEffect(() => {
    const total = entries ? unreadTotal(entries) : 0;
    setUnreadTotal(total);
    onTotal(total);
  }, [entries]);
  return { entries, problem, live };
}

function parse(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

type Permission = NotificationPermission | 'unsupported';
const permissionNow = (): Permission => ('Notification' in window ? Notification.permission : 'unsupported');

/** Browser notifications: asked for only when the person presses the button, never on load. */
function useNotifications() {
  const [permission, setPermission] = useState<Permission>(permissionNow);
  const ask = async () => setPermission(await Notification.requestPermission());
  const show = (arrival: Arrival) => {
    if (permissionNow() !== 'granted' || !notifies(arrival, openChat() ?? chatOfRoute(parseHashRoute()), document.hasFocus())) return;
    const title = arrival.private ? arrival.from || arrival.name : `${arrival.from ? `${arrival.from} in ` : ''}${arrival.name}`;
    const n = new Notification(title, { body: arrival.text.slice(0, 200), tag: `${arrival.chat.type}-${arrival.chat.id}` });
    n.onclick = () => {
      window.focus();
      location.hash = hrefOfChat(arrival.chat);
      n.close();
    };
  };
  return { permission, ask, show };
}

// The route now (a notification can come after the sidebar's last render).
const parseHashRoute = () => parseRoute(location.hash);

function Entry({ entry, current }: { entry: ChatEntry; current: boolean }) {
  return (
    <li>
      <a href={hrefOfChat(entry)} aria-label={entryName(entry)} aria-current={current ? 'page' : undefined} class={entry.unread > 0 ? 'unread' : undefined}>
        {/* The spaces keep the visible words apart, so that they read as part of the name (axe: label-content-name-mismatch). */}
        <span class="sb-name">{entry.name}</span>
        {entry.unread > 0 && <>{' '}<span class="badge">{countLabel(entry.unread)}</span></>}
        {entry.mentioned && <>{' '}<span class="at" title="mentioned">@</span></>}
      </a>
    </li>
  );
}

interface Person { id: number; name: string; mention_name: string }

/** "New chat": the people of the group, filtered as one types, each a link to the private chat. */
function NewChat({ me }: { me: number }) {
  const [open, setOpen] = useState(false);
  const [people, setPeople] = useState<Person[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const button = useRef<HTMLButtonElement>(null);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!open) return;
    field.current?.focus();
    if (people === null) allItems<Person>('/v2/user?max-results=1000').then(setPeople, (err: Error) => setProblem(err.message));
  }, [open]);
  const close = () => {
    setOpen(false);
    setFilter('');
    button.current?.focus();
  };
  const wanted = filter.trim().toLowerCase();
  const shown = (people ?? []).filter((p) => p.id !== me && (!wanted || p.name.toLowerCase().includes(wanted) || p.mention_name.toLowerCase().includes(wanted)));
  return (
    <div class="new-chat">
      <button ref={button} type="button" class="secondary" aria-expanded={open} aria-controls="new-chat-panel" onClick={() => (open ? close() : setOpen(true))}>New chat</button>
      {open && (
        <div id="new-chat-panel" class="new-chat-panel" onKeyDown={(e) => { if (e.key === 'Escape') { e.stopPropagation(); close(); } }}>
          <label for="new-chat-person">Find a person</label>
          <input id="new-chat-person" ref={field} type="search" autocomplete="off" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
          {problem ? <p class="problem" role="alert">{problem}</p>
            : people === null ? <p aria-busy="true" class="muted">Loading people…</p>
            : shown.length === 0 ? <p class="muted">Nobody by that name.</p>
            : (
              <ul aria-label="People" class="people">
                {shown.slice(0, 50).map((p) => (
                  <li key={p.id}><a href={hrefOf({ page: 'chat', userId: p.id })} onClick={() => { setOpen(false); setFilter(''); }}>{p.name} <span class="muted">@{p.mention_name}</span></a></li>
                ))}
              </ul>
            )}
        </div>
      )}
    </div>
  );
}

function NotificationSwitch({ permission, ask }: { permission: Permission; ask: () => Promise<void> }) {
  if (permission === 'unsupported') return null;
  if (permission === 'granted') return <p class="muted sb-note">Notifications are on for mentions and private messages.</p>;
  if (permission === 'denied') return <p class="muted sb-note">Notifications are blocked in this browser's site settings.</p>;
  return <button type="button" class="secondary" onClick={() => void ask()}>Turn on notifications</button>;
}

export function Sidebar({ session, route, open, onClose, onTotal }: {
  session: Session; route: Route; open: boolean; onClose: (refocus: boolean) => void;
  /** The unread messages of all chats (the drawer's button shows them on a narrow screen). */
  onTotal: (total: number) => void;
}) {
  const notifications = useNotifications();
  const { entries, problem, live } = useChats(session, route, notifications.show, onTotal);
  const nav = useRef<HTMLElement>(null);
  const current = chatOfRoute(route);
  const rooms = useMemo(() => (entries ?? []).filter((e) => e.type === 'room'), [entries]);
  const people = useMemo(() => (entries ?? []).filter((e) => e.type === 'user'), [entries]);

  // The drawer takes focus when it opens (its first entry), so that a keyboard user is in it.
  useEffect(() => {
    if (open) nav.current?.querySelector<HTMLElement>('a, button')?.focus();
  }, [open]);

  const isCurrent = (e: ChatEntry) => !!current && current.type === e.type && current.id === e.id;
  return (
    <nav id="sidebar" ref={nav} class={`sidebar${open ? ' open' : ''}`} aria-label="Rooms and chats"
      onKeyDown={(e) => { if (e.key === 'Escape' && open) onClose(true); }}
      onFocusOut={(e) => {
        // Leaving the drawer by keyboard closes it (it covers the page).
        const to = e.relatedTarget as Node | null;
        if (open && to && !nav.current?.contains(to) && !(to as HTMLElement).closest?.('#drawer-toggle')) onClose(false);
      }}>
      <button type="button" class="drawer-close secondary" onClick={() => onClose(true)}>Close</button>
      {problem && <p class="problem" role="alert">{problem}</p>}
      <div class="sb-group">
        <span class="sb-label" id="sb-rooms">Rooms</span>
        {entries === null ? <p class="muted" aria-busy="true">Loading…</p>
          : rooms.length === 0 ? <p class="muted sb-note">You are in no room yet.</p>
          : <ul aria-labelledby="sb-rooms">{rooms.map((e) => <Entry key={`r${e.id}`} entry={e} current={isCurrent(e)} />)}</ul>}
      </div>
      <div class="sb-group">
        <span class="sb-label" id="sb-people">Private chats</span>
        {entries !== null && (people.length === 0 ? <p class="muted sb-note">No private chat yet.</p>
          : <ul aria-labelledby="sb-people">{people.map((e) => <Entry key={`u${e.id}`} entry={e} current={isCurrent(e)} />)}</ul>)}
        <NewChat me={session.user.id} />
      </div>
      <div class="sb-group sb-notify">
        {/* Whether the counts move by themselves now (else they catch up on reconnecting). */}
        <p class="muted sb-note">{live ? 'Counts update live.' : 'Connecting…'}</p>
        <NotificationSwitch permission={notifications.permission} ask={notifications.ask} />
      </div>
    </nav>
  );
}
