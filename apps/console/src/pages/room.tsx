import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, ApiError, Session } from '../api';
import { ChatPane, Live } from '../chat/chat-pane';
import { useEmoticons } from '../chat/emoticons';
import { useReadMarker } from '../chat/read-marker';
import { ChatItem, chatItemOf, mergeItems, Person } from '../messages';
import { hrefOf } from '../routes';
import { attempt, Problem, usePageTitle } from '../ui';

interface Room {
  id: number;
  name: string;
  topic: string;
  privacy: string;
  is_archived: boolean;
  participants: Person[];
}

/** How many of the newest messages a room opens with. */
const HISTORY_SIZE = 75;

export function RoomPage({ roomId, session }: { roomId: number; session: Session }) {
  const [room, setRoom] = useState<Room | null>(null);
  const [missing, setMissing] = useState(false);
  const [members, setMembers] = useState<Person[]>([]);
  const [items, setItems] = useState<ChatItem[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [live, setLive] = useState<Live>('connecting');
  const [atBottom, setAtBottom] = useState(true);
  const emoticons = useEmoticons();
  const base = `/v2/room/${roomId}`;
  const source = useRef<EventSource | null>(null);
  usePageTitle(missing ? 'Room not found' : room?.name ?? 'Room');

  const failed = (err: Error) => {
    if (err instanceof ApiError && err.status === 404) {
      setMissing(true);
      source.current?.close();
    } else setProblem(err.message);
  };
  const loadRoom = () => api<Room>('GET', base).then((r) => {
    setRoom(r);
    // A private room's people are its members too, whether or not they have it open.
    if (r.privacy === 'private') {
      api<{ items: Person[] }>('GET', `${base}/member?max-results=1000`).then((m) => setMembers(m.items), () => setMembers([]));
    }
  }, failed);
  const loadHistory = () => api<{ items: Array<Record<string, unknown>> }>('GET', `${base}/history/latest?max-results=${HISTORY_SIZE}`)
    .then((page) => setItems((list) => mergeItems(list, page.items.flatMap((m) => chatItemOf(m) ?? []))), failed);

  useEffect(() => {
    void loadRoom();
    void loadHistory();
    // The live connection: each event as it happens, resumed by the browser from the last id after a drop.
    const events = new EventSource(`${base}/events`);
    source.current = events;
    const onItem = (e: MessageEvent) => {
      const item = parse(e.data);
      const message = item && typeof item.message === 'object' ? chatItemOf(item.message as Record<string, unknown>) : null;
      if (message) setItems((list) => mergeItems(list, [message]));
    };
    events.addEventListener('room_message', onItem);
    events.addEventListener('room_notification', onItem);
    events.addEventListener('room_file_upload', () => void loadHistory());
    events.addEventListener('room_topic_change', (e: MessageEvent) => {
      const topic = parse(e.data)?.topic;
      if (typeof topic === 'string') setRoom((r) => (r ? { ...r, topic } : r));
    });
    for (const name of ['room_enter', 'room_exit', 'room_archived', 'room_unarchived']) events.addEventListener(name, () => void loadRoom());
    events.addEventListener('room_deleted', () => setProblem('This room was deleted.'));
    events.onopen = () => setLive('live');
    events.onerror = () => setLive(events.readyState === EventSource.CLOSED ? 'unavailable' : 'reconnecting');
    return () => events.close();
  }, [roomId]);

  useReadMarker({ type: 'room', id: roomId }, `${base}/read`, items, atBottom, room !== null);
  const people = useMemo(() => [...(room?.participants ?? []), ...members], [room, members]);

  if (missing) {
    return (
      <>
        <h1 tabIndex={-1}>Room not found</h1>
        <p>There is no room {roomId}, or it is not one you may see. <a href={hrefOf({ page: 'rooms' })}>Rooms</a></p>
      </>
    );
  }
  const send = (message: string) => api('POST', `${base}/message`, { message }).then(() => (live !== 'live' ? loadHistory() : undefined));
  const share = (file: File, message: string) => {
    const form = new FormData();
    form.append('file', file, file.name);
    if (message) form.append('message', message);
    // The file's message arrives as room_file_upload (which reloads the history); read it now when not live.
    return api('POST', `${base}/share/file`, form).then(() => (live !== 'live' ? loadHistory() : undefined));
  };
  return (
    <>
      <h1 tabIndex={-1}>{room ? room.name : 'Room'}</h1>
      <p class="room-links"><a href={hrefOf({ page: 'integrations', roomId })}>Integrations</a> <a href={hrefOf({ page: 'room-settings', roomId })}>Settings</a></p>
      <Problem text={problem} />
      {room && <Topic room={room} onChanged={(topic) => setRoom({ ...room, topic })} />}
      <div class="room">
        <ChatPane heading="History" label="Room history" items={items} me={session.user.mention_name} emoticons={emoticons}
          people={people} live={live} send={send} share={share} onBottom={setAtBottom} />
        <aside aria-labelledby="participants-heading">
          <h2 id="participants-heading">Participants</h2>
          {room && (room.participants.length === 0 ? <p>Nobody is in the room.</p> : (
            <PeopleList people={room.participants} me={session.user.id} />
          ))}
          {members.length > 0 && (
            <>
              <h2 id="members-heading">Members</h2>
              <PeopleList people={members} me={session.user.id} />
            </>
          )}
        </aside>
      </div>
    </>
  );
}

/** People, each (but oneself) a link to a private chat with them. */
function PeopleList({ people, me }: { people: readonly Person[]; me: number }) {
  return (
    <ul class="people">
      {people.map((p) => (
        <li key={p.id}>
          {p.id === me ? p.name : <a href={hrefOf({ page: 'chat', userId: p.id })} title={`Private chat with ${p.name}`}>{p.name}</a>}
          {' '}<span class="muted">@{p.mention_name}</span>
        </li>
      ))}
    </ul>
  );
}

export function parse(data: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(data);
    return value && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
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
