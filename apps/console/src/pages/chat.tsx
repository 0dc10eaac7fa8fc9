import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError, Session } from '../api';
import { ChatPane, Live } from '../chat/chat-pane';
import { useEmoticons } from '../chat/emoticons';
import { useReadMarker } from '../chat/read-marker';
import { ChatItem, chatItemOf, mergeItems, Person, privateItemOf } from '../messages';
import { hrefOf } from '../routes';
import { Problem, usePageTitle } from '../ui';
import { parse } from './room';

/** How many of the newest messages a private chat opens with. */
const HISTORY_SIZE = 75;

/**
 * A one-to-one chat with another person, on the v2 private-message API: its history, its
 * composer, and the messages either of them sends as they are sent (the reader's own live
 * stream of private messages, of which this page shows the ones with this person).
 */
export function ChatPage({ userId, session }: { userId: number; session: Session }) {
  const me = session.user;
  const [person, setPerson] = useState<Person | null>(null);
  const [missing, setMissing] = useState(false);
  const [items, setItems] = useState<ChatItem[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [live, setLive] = useState<Live>('connecting');
  const [atBottom, setAtBottom] = useState(true);
  const emoticons = useEmoticons();
  const base = `/v2/user/${userId}`;
  usePageTitle(missing ? 'Person not found' : person?.name ?? 'Private chat');

  const failed = (err: Error) => (err instanceof ApiError && err.status === 404 ? setMissing(true) : setProblem(err.message));
  const loadHistory = () => api<{ items: Array<Record<string, unknown>> }>('GET', `${base}/history/latest?max-results=${HISTORY_SIZE}`)
    .then((page) => setItems((list) => mergeItems(list, page.items.flatMap((m) => chatItemOf(m) ?? []))), failed);

  useEffect(() => {
    api<Person>('GET', base).then(setPerson, failed);
    void loadHistory();
    const events = new EventSource(`/v2/user/${me.id}/events`);
    events.addEventListener('private_message', (e: MessageEvent) => {
      const message = privateItemOf(parse(e.data), me.id, userId);
      if (message) setItems((list) => mergeItems(list, [message]));
    });
    events.onopen = () => {
      setLive('live');
      // What was sent while the stream was away is in the history.
      void loadHistory();
    };
    events.onerror = () => setLive(events.readyState === EventSource.CLOSED ? 'unavailable' : 'reconnecting');
    return () => events.close();
  }, [userId]);

  useReadMarker({ type: 'user', id: userId }, `${base}/read`, items, atBottom, person !== null);
  const people = useMemo(() => (person ? [person, me] : [me]), [person]);

  if (missing) {
    return (
      <>
        <h1 tabIndex={-1}>Person not found</h1>
        <p>There is no person {userId} to chat with. <a href={hrefOf({ page: 'rooms' })}>Rooms</a></p>
      </>
    );
  }
  const send = (message: string) => api('POST', `${base}/message`, { message }).then(() => (live !== 'live' ? loadHistory() : undefined));
  return (
    <>
      <h1 tabIndex={-1}>{person ? person.name : 'Private chat'}</h1>
      {person && <p class="muted">Private chat with @{person.mention_name}</p>}
      <Problem text={problem} />
      <div class="room private">
        <ChatPane heading="Messages" label="Chat history" items={items} me={me.mention_name} emoticons={emoticons}
          people={people} live={live} send={send} onBottom={setAtBottom} />
      </div>
    </>
  );
}
